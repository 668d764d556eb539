import { beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../../server/testing/helpers.ts';
import { answerTokenFor, storeWaitingRequest } from '../../../../server/testing/answer-fixtures.ts';
import { useTestDatabase } from '../../../../server/testing/test-database.ts';
import { answerChannels, createBookingAnswers, type BookingAnswers } from './booking-answers.ts';
import type { DatabaseError } from './database.ts';

/**
 * The answers of booking requests in the database itself: what `anon` may do
 * (call public.mark_booking_answered and public.unmark_booking_answered,
 * nothing else), and the owner's side
 * that `npx hijama answer` and `list` use.
 */

describe.each(testEngines('answers'))('booking answers on $name', (engine) => {
  const database = useTestDatabase(engine);
  let answers: BookingAnswers;

  beforeAll(() => {
    answers = createBookingAnswers(database.db);
  });

  const storedRequest = () => storeWaitingRequest(database.db);

  const tokenFor = (id: string, validFor?: string) => answerTokenFor(database.db, id, validFor);

  /** `sql` run as anon, in a transaction of its own; resolves with the rows or rejects with the database's error. */
  const asAnon = (sql: string, params: unknown[] = []) =>
    database.db.transaction(async (tx) => {
      await tx.query('set local role anon');
      return (await tx.query(sql, params)).rows;
    });

  const refusal = async (work: Promise<unknown>) => {
    const error = (await work.then(
      () => undefined,
      (reason: unknown) => reason,
    )) as DatabaseError | undefined;
    expect(error).toBeDefined();
    return { code: error!.code, message: error!.message };
  };

  it('lets anon mark a request with its token, once', async () => {
    const id = await storedRequest();
    const token = await tokenFor(id);
    const [first] = await asAnon('select public.mark_booking_answered($1)::text as mark', [token]);
    const [second] = await asAnon('select public.mark_booking_answered($1)::text as mark', [token]);
    const mark = JSON.parse((first as { mark: string }).mark) as { reference: string };
    expect(mark.reference).toBe(id.replaceAll('-', '').slice(0, 8).toUpperCase());
    expect(second).toEqual(first);
    const { rows } = await database.db.query(
      'select marked_by from app_private.booking_answers where booking_id = $1',
      [id],
    );
    expect(rows).toEqual([{ marked_by: 'link' }]);
  });

  it('refuses forged, expired and orphaned tokens with their codes', async () => {
    const id = await storedRequest();
    const token = await tokenFor(id);
    const forged = token.slice(0, -1) + (token.endsWith('0') ? '1' : '0');
    const call = (t: string) => asAnon('select public.mark_booking_answered($1)', [t]);
    expect((await refusal(call(forged))).code).toBe('PT403');
    expect((await refusal(call(await tokenFor(id, '-1 second')))).code).toBe('PT410');
    await database.db.query('delete from public.bookings where id = $1', [id]);
    expect((await refusal(call(token))).code).toBe('PT404');
  });

  it('lets anon take a mark back with the same token, and refuses the same tokens as marking', async () => {
    const id = await storedRequest();
    const token = await tokenFor(id);
    await answers.markByToken(token);
    expect(await answers.unmarkByToken(token)).toEqual({
      reference: id.replaceAll('-', '').slice(0, 8).toUpperCase(),
      was_answered: true,
    });
    expect((await answers.unmarkByToken(token)).was_answered).toBe(false);
    const { rows } = await database.db.query(
      'select 1 from app_private.booking_answers where booking_id = $1',
      [id],
    );
    expect(rows).toEqual([]);

    await answers.markByToken(token);
    const forged = token.slice(0, -1) + (token.endsWith('0') ? '1' : '0');
    const call = (t: string) => answers.unmarkByToken(t);
    expect((await refusal(call(forged))).code).toBe('PT403');
    expect((await refusal(call(await tokenFor(id, '-1 second')))).code).toBe('PT410');
    expect((await refusal(answers.unmarkByToken(token, { readOnly: true }))).code).toBe('25006');
    await database.db.query('delete from public.bookings where id = $1', [id]);
    expect((await refusal(call(token))).code).toBe('PT404');
    const { rows: grants } = await database.db.query(
      `select has_function_privilege('anon', 'public.unmark_booking_answered(text)', 'execute') as unmarking,
              has_function_privilege('anon', 'app_private.answer_token_booking(text)', 'execute') as checking`,
    );
    expect(grants).toEqual([{ unmarking: true, checking: false }]);
  });

  it('takes back a mark by id for the command, and says when there was none', async () => {
    const id = await storedRequest();
    const marked = await answers.markById(id, 'sms');
    expect(await answers.unmarkById(id)).toEqual({
      outcome: 'unmarked',
      answer: marked.outcome === 'marked' ? marked.answer : undefined,
    });
    expect(await answers.unmarkById(id)).toEqual({ outcome: 'not answered' });
    expect(await answers.unmarkById(crypto.randomUUID())).toEqual({ outcome: 'not found' });
  });

  it('keeps the answers, the key and the signing function from anon', async () => {
    const id = await storedRequest();
    for (const sql of [
      'select * from app_private.booking_answers',
      'select * from app_private.answer_link_key',
      'select app_private.answer_link_key()',
    ]) {
      expect((await refusal(asAnon(sql))).code).toBe('42501');
    }
    const signing = await refusal(asAnon('select app_private.answer_token($1::uuid)', [id]));
    expect(signing.code).toBe('42501');
    // Refused by the grants themselves too, not only by the schema's: as on a
    // Supabase project where anon may use app_private.
    const { rows } = await database.db.query(
      `select has_table_privilege('anon', 'app_private.booking_answers', 'select') as answers,
              has_table_privilege('anon', 'app_private.answer_link_key', 'select') as key,
              has_function_privilege('anon', 'app_private.answer_token(uuid, interval)', 'execute') as signing,
              has_function_privilege('anon', 'public.mark_booking_answered(text)', 'execute') as marking`,
    );
    expect(rows).toEqual([{ answers: false, key: false, signing: false, marking: true }]);
  });

  it('refuses a genuine token in a read-only transaction, changing nothing', async () => {
    const id = await storedRequest();
    const refused = await refusal(answers.markByToken(await tokenFor(id), { readOnly: true }));
    expect(refused.code).toBe('25006');
    const { rows } = await database.db.query(
      'select 1 from app_private.booking_answers where booking_id = $1',
      [id],
    );
    expect(rows).toEqual([]);
  });

  it('marks a request by id for the command, once, and says when it already was', async () => {
    const id = await storedRequest();
    const marked = await answers.markById(id, 'instagram');
    expect(marked).toMatchObject({
      outcome: 'marked',
      answer: { channel: 'instagram', markedBy: 'command' },
    });
    const again = await answers.markById(id, 'phone');
    expect(again).toEqual({
      outcome: 'already answered',
      answer: marked.outcome === 'marked' ? marked.answer : undefined,
    });
    expect(await answers.markById(crypto.randomUUID(), null)).toEqual({ outcome: 'not found' });
    const since = await answers.answeredSince(new Date(Date.now() - 60_000));
    expect(since.get(id)).toEqual(again.outcome === 'already answered' ? again.answer : undefined);
  });

  it('knows the channels the table allows, no more and no fewer', async () => {
    const id = await storedRequest();
    for (const channel of answerChannels) {
      await database.db.transaction(async (tx) => {
        await tx.query(
          'insert into app_private.booking_answers (booking_id, channel) values ($1, $2)',
          [id, channel],
        );
        await tx.query('delete from app_private.booking_answers where booking_id = $1', [id]);
      });
    }
    const refused = await refusal(
      database.db.query(
        `insert into app_private.booking_answers (booking_id, channel) values ($1, 'telegram')`,
        [id],
      ),
    );
    expect(refused.code).toBe('23514');
  });
});
