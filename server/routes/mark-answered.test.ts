import { PostgrestClient } from '@supabase/postgrest-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookingAnswers } from '../../supabase/functions/_shared/db/booking-answers.ts';
import { useTestDatabase } from '../testing/test-database.ts';
import { anonJsonHeaders, testEngines, type RunningServer, serveApp } from '../testing/helpers.ts';
import { answerTokenFor, storeWaitingRequest } from '../testing/answer-fixtures.ts';

/** `POST /rest/v1/rpc/mark_booking_answered` over real HTTP, as the answer page calls it. */

describe.each(testEngines('mark-answered'))('rpc/mark_booking_answered on $name', (engine) => {
  const opened = useTestDatabase(engine);
  let server: RunningServer;
  let url: string;

  beforeAll(async () => {
    server = await serveApp(opened.db, {
      bookingAnswers: createBookingAnswers(opened.db),
      logError: () => {},
    });
    url = `${server.baseUrl}/rest/v1/rpc/mark_booking_answered`;
  });

  afterAll(async () => {
    await server?.close();
  });

  const storedRequest = () => storeWaitingRequest(opened.db);

  const tokenFor = (id: string, validFor?: string) => answerTokenFor(opened.db, id, validFor);

  async function answerRows(id: string) {
    const { rows } = await opened.db.query<{ marked_by: string; channel: string | null }>(
      'select marked_by, channel from app_private.booking_answers where booking_id = $1',
      [id],
    );
    return rows;
  }

  const mark = (token: unknown, headers: Record<string, string> = anonJsonHeaders) =>
    fetch(url, { method: 'POST', headers, body: JSON.stringify({ token }) });

  it('marks the request of a genuine token answered, with CORS, and a second call changes nothing', async () => {
    const id = await storedRequest();
    const token = await tokenFor(id);
    const first = await fetch(url, {
      method: 'POST',
      headers: { ...anonJsonHeaders, Origin: 'https://example.org' },
      body: JSON.stringify({ token }),
    });
    expect(first.status).toBe(200);
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await first.json()) as { reference: string; answered_at: string };
    expect(body.reference).toBe(id.replaceAll('-', '').slice(0, 8).toUpperCase());
    expect(Number.isNaN(Date.parse(body.answered_at))).toBe(false);
    expect(await answerRows(id)).toEqual([{ marked_by: 'link', channel: null }]);

    const second = await mark(token);
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual(body);
    expect(await answerRows(id)).toHaveLength(1);
  });

  it('answers postgrest-js as the page calls it, and its refusals as errors', async () => {
    const client = new PostgrestClient(`${server.baseUrl}/rest/v1`, {
      headers: {
        apikey: anonJsonHeaders.apikey,
        Authorization: `Bearer ${anonJsonHeaders.apikey}`,
      },
    });
    const id = await storedRequest();
    const marked = await client.rpc('mark_booking_answered', { token: await tokenFor(id) });
    expect(marked.error).toBeNull();
    expect(marked.status).toBe(200);
    expect(marked.data).toMatchObject({ reference: id.slice(0, 8).toUpperCase() });
    const expired = await client.rpc('mark_booking_answered', {
      token: await tokenFor(id, '-1 day'),
    });
    expect(expired.status).toBe(410);
    expect(expired.error).toMatchObject({ code: 'PT410', message: 'This answer link has expired' });
  });

  it('refuses a forged token with 403 in PostgREST’s shape', async () => {
    const id = await storedRequest();
    const token = await tokenFor(id);
    const last = token.at(-1)!;
    const forged = token.slice(0, -1) + (last === '0' ? '1' : '0');
    const response = await mark(forged);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      code: 'PT403',
      message: 'This link is not a valid answer link',
      details: null,
      hint: expect.stringContaining('npx hijama answer') as unknown,
    });
    expect(await answerRows(id)).toEqual([]);
  });

  it("refuses one request's signature with another request's id", async () => {
    const signed = await storedRequest();
    const other = await storedRequest();
    const [, expiry, signature] = (await tokenFor(signed)).split('.');
    const response = await mark(`${other}.${expiry}.${signature}`);
    expect(response.status).toBe(403);
    expect(await answerRows(other)).toEqual([]);
  });

  it.each([['garbled'], [''], [null], [42], ['a.b.c']])(
    'refuses the token %j with 403',
    async (token) => {
      const response = await mark(token);
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ code: 'PT403' });
    },
  );

  it('refuses an expired token with 410', async () => {
    const id = await storedRequest();
    const response = await mark(await tokenFor(id, '-1 minute'));
    expect(response.status).toBe(410);
    expect(await response.json()).toEqual({
      code: 'PT410',
      message: 'This answer link has expired',
      details: null,
      hint: 'Mark the request with npx hijama answer and its reference.',
    });
    expect(await answerRows(id)).toEqual([]);
  });

  it('refuses the token of a deleted request with 404', async () => {
    const id = await storedRequest();
    const token = await tokenFor(id);
    await opened.db.query('delete from public.bookings where id = $1', [id]);
    const response = await mark(token);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      code: 'PT404',
      message: 'This request is no longer stored',
      details: null,
      hint: 'It was deleted, by its retention period or by hand.',
    });
  });

  it('changes nothing when called with GET, refused by the database as PostgREST would be', async () => {
    const id = await storedRequest();
    const token = await tokenFor(id);
    const response = await fetch(`${url}?token=${encodeURIComponent(token)}`, {
      headers: anonJsonHeaders,
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toMatchObject({
      code: '25006',
      message: 'cannot execute INSERT in a read-only transaction',
      details: null,
      hint: null,
    });
    expect(await answerRows(id)).toEqual([]);
  });

  it('refuses a method other than GET and POST', async () => {
    const response = await fetch(url, { method: 'PATCH', headers: anonJsonHeaders, body: '{}' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(await response.json()).toMatchObject({ code: 'PGRST117' });
  });

  it.each([
    ['not JSON', '{token'],
    ['an array', '["x"]'],
    ['a string', '"x"'],
  ])('refuses a body that is %s with 400', async (_what, body) => {
    const response = await fetch(url, { method: 'POST', headers: anonJsonHeaders, body });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: 'PGRST102',
      message: 'Empty or invalid json',
      details: null,
      hint: null,
    });
  });

  it.each([
    ['{}', 'mark_booking_answered()'],
    ['{"token": "x", "channel": "email"}', 'mark_booking_answered(channel, token)'],
    ['{"tokn": "x"}', 'mark_booking_answered(tokn)'],
  ])('finds no function for the arguments of %s, as PostgREST', async (body, signature) => {
    const response = await fetch(url, { method: 'POST', headers: anonJsonHeaders, body });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      code: 'PGRST202',
      message: `Could not find the function public.${signature} in the schema cache`,
    });
  });

  it('needs an API key', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"token": "x"}',
    });
    expect(response.status).toBe(401);
  });
});
