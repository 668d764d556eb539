import { PostgrestClient } from '@supabase/postgrest-js';
import { describe, expect, it } from 'vitest';
import { shortReference } from '../../supabase/functions/_shared/core/booking-reference.ts';
import { createBookingAnswers } from '../../supabase/functions/_shared/db/booking-answers.ts';
import { expectApiError, useTestApp } from '../testing/test-database.ts';
import { anonHeaders, anonJsonHeaders, testEngines } from '../testing/helpers.ts';
import { answerTokenFor, forgedToken, storeWaitingRequest } from '../testing/answer-fixtures.ts';

/**
 * `POST /rest/v1/rpc/mark_booking_answered` over real HTTP, as the answer page
 * calls it. Which tokens the function accepts is the database's to decide
 * (supabase/functions/_shared/db/booking-answers.test.ts); here, how its
 * answers and refusals reach the page.
 */

describe.each(testEngines('mark-answered'))('rpc/mark_booking_answered on $name', (engine) => {
  const app = useTestApp(engine, (db) => ({
    bookingAnswers: createBookingAnswers(db),
    logError: () => {},
  }));
  const url = () => `${app.baseUrl}/rest/v1/rpc/mark_booking_answered`;
  const storedRequest = () => storeWaitingRequest(app.db);
  const tokenFor = (id: string, validFor?: string) => answerTokenFor(app.db, id, validFor);

  async function answerRows(id: string) {
    const { rows } = await app.db.query<{ marked_by: string; channel: string | null }>(
      'select marked_by, channel from app_private.booking_answers where booking_id = $1',
      [id],
    );
    return rows;
  }

  const mark = (token: unknown) =>
    fetch(url(), { method: 'POST', headers: anonJsonHeaders, body: JSON.stringify({ token }) });

  // That a second call changes nothing is the database's (booking-answers.test.ts).
  it('marks the request of a genuine token answered, with CORS', async () => {
    const id = await storedRequest();
    const response = await mark(await tokenFor(id));
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await response.json()) as { reference: string; answered_at: string };
    expect(body.reference).toBe(shortReference(id));
    expect(Number.isNaN(Date.parse(body.answered_at))).toBe(false);
    expect(await answerRows(id)).toEqual([{ marked_by: 'link', channel: null }]);
  });

  // A refusal's shape is checked below with expectApiError; how the page shows it, in e2e/answer-link.spec.ts.
  it('answers postgrest-js as the page calls it', async () => {
    const client = new PostgrestClient(`${app.baseUrl}/rest/v1`, { headers: anonHeaders });
    const id = await storedRequest();
    const marked = await client.rpc('mark_booking_answered', { token: await tokenFor(id) });
    expect([marked.error, marked.status]).toEqual([null, 200]);
    expect(marked.data).toMatchObject({ reference: shortReference(id) });
  });

  it("passes on the database's refusals with their status, message and hint", async () => {
    const forged = async (id: string) => forgedToken(await tokenFor(id));
    const deleted = async (id: string) => {
      const token = await tokenFor(id);
      await app.db.query('delete from public.bookings where id = $1', [id]);
      return token;
    };
    const cases: [(id: string) => Promise<string>, number, string, string][] = [
      [forged, 403, 'This link is not a valid answer link', 'npx hijama answer'],
      [(id) => tokenFor(id, '-1 minute'), 410, 'This answer link has expired', 'npx hijama answer'],
      [deleted, 404, 'This request is no longer stored', 'It was deleted'],
    ];
    for (const [tokenOf, status, message, hint] of cases) {
      const id = await storedRequest();
      const error = await expectApiError(await mark(await tokenOf(id)), status, `PT${status}`);
      expect(error).toMatchObject({ message, details: null });
      expect(error.hint).toContain(hint);
      expect(await answerRows(id)).toEqual([]);
    }
  });

  // Which strings are genuine is the database's to say (booking-answers.test.ts); here,
  // that a token of another JSON type reaches it as text, and is refused.
  it.each([null, 42])('refuses the token %j as the database does', async (token) => {
    await expectApiError(await mark(token), 403, 'PT403');
  });

  it('changes nothing when called with GET, refused by the database as PostgREST would be', async () => {
    const id = await storedRequest();
    const token = await tokenFor(id);
    const response = await fetch(`${url()}?token=${encodeURIComponent(token)}`, {
      headers: anonJsonHeaders,
    });
    const error = await expectApiError(response, 405, '25006');
    expect(error.message).toBe('cannot execute INSERT in a read-only transaction');
    expect(await answerRows(id)).toEqual([]);
  });

  it('refuses a method other than GET and POST', async () => {
    const response = await fetch(url(), { method: 'PATCH', headers: anonJsonHeaders, body: '{}' });
    await expectApiError(response, 405, 'PGRST117');
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it.each([
    ['not JSON', '{token', 400, 'PGRST102', 'Empty or invalid json'],
    ['an array', '["x"]', 400, 'PGRST102', 'Empty or invalid json'],
    ['a string', '"x"', 400, 'PGRST102', 'Empty or invalid json'],
    ['{}', '{}', 404, 'PGRST202', 'mark_booking_answered()'],
    [
      'two arguments',
      '{"token": "x", "channel": "email"}',
      404,
      'PGRST202',
      'mark_booking_answered(channel, token)',
    ],
    ['another name', '{"tokn": "x"}', 404, 'PGRST202', 'mark_booking_answered(tokn)'],
  ])('refuses a body that is %s as PostgREST does', async (_what, body, status, code, message) => {
    const response = await fetch(url(), { method: 'POST', headers: anonJsonHeaders, body });
    expect((await expectApiError(response, status, code)).message).toContain(message);
  });
});
