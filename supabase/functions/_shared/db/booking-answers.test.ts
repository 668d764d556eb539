import { beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../../server/testing/helpers.ts';
import {
  answerTokenFor,
  forgedToken,
  storeWaitingRequest,
} from '../../../../server/testing/answer-fixtures.ts';
import { shortReference } from '../core/booking-reference.ts';
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

  /** The code of the database's error that `work` rejects with. */
  const codeOf = (work: Promise<unknown>) =>
    work.then(
      () => 'no error',
      (error: DatabaseError) => error.code,
    );

  const answerRows = (id: string) =>
    database.db
      .query('select marked_by from app_private.booking_answers where booking_id = $1', [id])
      .then(({ rows }) => rows);

  it('lets anon mark a request with its token, once', async () => {
    const id = await storedRequest();
    const token = await tokenFor(id);
    const [first] = await asAnon('select public.mark_booking_answered($1)::text as mark', [token]);
    const [second] = await asAnon('select public.mark_booking_answered($1)::text as mark', [token]);
    const mark = JSON.parse((first as { mark: string }).mark) as { reference: string };
    expect(mark.reference).toBe(shortReference(id));
    expect(second).toEqual(first);
    expect(await answerRows(id)).toEqual([{ marked_by: 'link' }]);
  });

  it.each(['mark', 'unmark'])(
    'refuses to %s with forged, swapped, malformed, expired and orphaned tokens, with their codes',
    async (kind) => {
      const id = await storedRequest();
      const token = await tokenFor(id);
      await answers.markByToken(token);
      const call = (t: string) => asAnon(`select public.${kind}_booking_answered($1)`, [t]);
      // This request's signature with another request's id.
      const [, expiry, signature] = token.split('.');
      const swapped = `${await storedRequest()}.${expiry}.${signature}`;
      for (const refused of [forgedToken(token), swapped, 'garbled', '', 'a.b.c']) {
        expect(await codeOf(call(refused))).toBe('PT403');
      }
      expect(await codeOf(call(await tokenFor(id, '-1 second')))).toBe('PT410');
      await database.db.query('delete from public.bookings where id = $1', [id]);
      expect(await codeOf(call(token))).toBe('PT404');
    },
  );

  it('lets anon take a mark back with the same token', async () => {
    const id = await storedRequest();
    const token = await tokenFor(id);
    await answers.markByToken(token);
    expect(await answers.unmarkByToken(token)).toEqual({
      reference: shortReference(id),
      was_answered: true,
    });
    expect((await answers.unmarkByToken(token)).was_answered).toBe(false);
    expect(await answerRows(id)).toEqual([]);
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
      expect(await codeOf(asAnon(sql))).toBe('42501');
    }
    expect(await codeOf(asAnon('select app_private.answer_token($1::uuid)', [id]))).toBe('42501');
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

  it('refuses a genuine token in a read-only transaction, changing nothing, to mark and to unmark', async () => {
    const id = await storedRequest();
    const token = await tokenFor(id);
    expect(await codeOf(answers.markByToken(token, { readOnly: true }))).toBe('25006');
    expect(await answerRows(id)).toEqual([]);
    await answers.markByToken(token);
    expect(await codeOf(answers.unmarkByToken(token, { readOnly: true }))).toBe('25006');
    expect(await answerRows(id)).toEqual([{ marked_by: 'link' }]);
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
    expect(
      await codeOf(
        database.db.query(
          `insert into app_private.booking_answers (booking_id, channel) values ($1, 'telegram')`,
          [id],
        ),
      ),
    ).toBe('23514');
  });
});
