import { PostgrestClient } from '@supabase/postgrest-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { developmentAnonKey } from '../supabase/functions/_shared/core/api-defaults.ts';
import {
  DatabaseError,
  DatabaseUnavailableError,
} from '../supabase/functions/_shared/db/database.ts';
import { expectApiError, useTestApp } from './testing/test-database.ts';
import { openPostgres } from '../supabase/functions/_shared/db/postgres.ts';
import type { Database } from '../supabase/functions/_shared/db/database.ts';
import {
  anonHeaders,
  anonJsonHeaders,
  serveApp,
  testEngines,
  type RunningServer,
} from './testing/helpers.ts';
import { request as httpRequest } from 'node:http';
import { bookingWithId, postBooking, sampleBooking } from './testing/booking-samples.ts';

const engines = testEngines('api');

describe.each(engines)('the booking API on $name', (engine) => {
  const logged: unknown[] = [];
  const app = useTestApp(engine, () => ({ logError: (_message, error) => logged.push(error) }));
  const api = () => `${app.baseUrl}/rest/v1`;

  beforeEach(async () => {
    await app.db.query('delete from public.bookings');
    logged.length = 0;
  });

  async function storedRows() {
    const { rows } = await app.db.query<Record<string, unknown>>(
      'select id::text, full_name, phone, email, instagram, created_at from public.bookings order by created_at, full_name',
    );
    return rows;
  }

  function post(body: unknown, headers: Record<string, string> = anonJsonHeaders, query = '') {
    return fetch(`${api()}/bookings${query}`, {
      method: 'POST',
      headers,
      body: typeof body === 'string' || body instanceof Blob ? body : JSON.stringify(body),
    });
  }

  describe('inserting', () => {
    it('stores a valid booking as core sends it, with created_at from the clock', async () => {
      const id = crypto.randomUUID();
      const before = Date.now();
      const response = await post({
        id,
        full_name: '  Amina Khan ',
        phone: ' +44 (0) 1634 123 456 ',
        email: ' amina@example.com',
        instagram: '  @Amina.K ',
      });
      expect(response.status).toBe(201);
      expect(await response.text()).toBe('');
      expect((await post({ ...sampleBooking, instagram: '   ' })).status).toBe(201);

      const [first, second] = await storedRows();
      const { created_at, ...row } = first!;
      expect(row).toEqual({
        id,
        full_name: 'Amina Khan',
        phone: '+44 (0) 1634 123 456',
        email: 'amina@example.com',
        instagram: 'amina.k',
      });
      expect((created_at as Date).getTime()).toBeGreaterThanOrEqual(before - 5_000);
      expect((created_at as Date).getTime()).toBeLessThanOrEqual(Date.now() + 5_000);
      // An id is generated when none is sent; an empty Instagram is none.
      expect(second).toMatchObject({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        instagram: null,
      });
    });

    it('accepts exactly what postgrest-js sends, and refuses a retry with 23505, keeping the stored row', async () => {
      const client = new PostgrestClient(api(), { headers: anonHeaders, schema: 'public' });
      const row = bookingWithId();
      const first = await client.from('bookings').insert(row);
      expect([first.error, first.status]).toEqual([null, 201]);

      const retry = await client.from('bookings').insert(row);
      expect([retry.status, retry.error?.code]).toEqual([409, '23505']);
      const changed = await expectApiError(
        await post({ ...row, full_name: 'Someone Else' }),
        409,
        '23505',
      );
      expect(changed.message).toContain('bookings_pkey');
      expect(await storedRows()).toEqual([expect.objectContaining({ full_name: 'Amina Khan' })]);
    });

    it('stores concurrent bookings independently, and one row for retries arriving together', async () => {
      const row = bookingWithId();
      const statuses = await Promise.all([
        ...Array.from({ length: 5 }, async () => (await post(row)).status),
        ...Array.from(
          { length: 15 },
          async (_, i) => (await post({ ...sampleBooking, full_name: `Guest ${i}` })).status,
        ),
      ]);
      expect(statuses.slice(0, 5).sort()).toEqual([201, 409, 409, 409, 409]);
      expect(new Set(statuses.slice(5))).toEqual(new Set([201]));
      expect(await storedRows()).toHaveLength(16);
    });
  });

  it('tells every cache to keep none of its answers, and every browser to read them as sent', async () => {
    const answers = [
      await post(sampleBooking),
      await fetch(`${api()}/bookings`, { method: 'OPTIONS' }),
      await fetch(`${api()}/bookings?select=*`, { headers: anonHeaders }),
      await fetch(`${api()}/nothing`, { headers: anonHeaders }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([201, 200, 401, 404]);
    for (const answer of answers) {
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  describe('refusing bad input with a PostgREST error and storing nothing', () => {
    const withFields = (fields: Record<string, unknown>) => () =>
      post({ ...sampleBooking, ...fields });
    const withHeaders = (headers: Record<string, string>) => () => post(sampleBooking, headers);
    type Refused = Record<string, [send: () => Promise<Response>, message?: RegExp]>;
    // Each request under the status and code it is answered with, and what its message says.
    const refusals: Record<string, Refused> = {
      '400 PGRST102': {
        'invalid JSON': [() => post('{"full_name": "Amina"'), /Empty or invalid json/],
        'an empty body': [() => post('')],
        'a JSON string': [() => post('"Amina Khan"')],
        'JSON null': [() => post('null')],
        'an array holding a non-object': [() => post([sampleBooking, 42])],
        'objects with different keys': [
          () => post([sampleBooking, { full_name: 'A' }]),
          /All object keys must match/,
        ],
        'invalid UTF-8': [
          () => post(new Blob([new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])])),
        ],
        'a number as the phone': [withFields({ phone: 1634123456 }), /expected a string/],
        'a NUL character': [withFields({ full_name: 'Amina\u0000Khan' })],
        'a lone surrogate': [
          () => post(`{"full_name":"A\\ud800","phone":"01634123456","email":"a@b.co"}`),
        ],
      },
      '400 PT400': {
        'two bookings at once': [
          () => post([bookingWithId(), bookingWithId({ full_name: 'Yusuf Ali' })]),
          /Send one booking request at a time/,
        ],
      },
      '400 PGRST204': {
        'an unknown column': [
          withFields({ notes: 'hello' }),
          /Could not find the 'notes' column of 'bookings'/,
        ],
        'an unknown column named in ?columns': [
          () => post([sampleBooking], anonJsonHeaders, '?columns="full_name","notes"'),
        ],
      },
      '400 23502': {
        'a missing phone': [
          () => post({ full_name: 'A', email: 'a@b.co' }),
          /null value in column "phone"/,
        ],
      },
      '400 23514': {
        'letters in the phone': [withFields({ phone: 'abc1234567' }), /bookings_phone_check/],
      },
      '400 22P02': {
        'an id that is not a uuid': [
          withFields({ id: 'booking-1' }),
          /invalid input syntax for type uuid/,
        ],
        'a numeric id': [withFields({ id: 7 })],
      },
      '401 42501': {
        'a created_at chosen by the caller': [withFields({ created_at: '2020-01-01T00:00:00Z' })],
        'a request to return the row': [
          withHeaders({ ...anonJsonHeaders, Prefer: 'return=representation' }),
        ],
        'an upsert': [withHeaders({ ...anonJsonHeaders, Prefer: 'resolution=ignore-duplicates' })],
      },
      '401 PGRST302': {
        'no apikey': [withHeaders({ 'Content-Type': 'application/json' }), /No API key found/],
      },
      '401 PGRST301': {
        'a wrong apikey': [
          withHeaders({ apikey: 'guess', 'Content-Type': 'application/json' }),
          /Invalid API key/,
        ],
        'a wrong bearer token': [
          withHeaders({ ...anonJsonHeaders, Authorization: 'Bearer guess' }),
        ],
        'a malformed Authorization header': [
          withHeaders({ ...anonJsonHeaders, Authorization: developmentAnonKey }),
        ],
      },
      '406 PGRST106': {
        'another schema': [withHeaders({ ...anonJsonHeaders, 'Content-Profile': 'private' })],
      },
      '413 54000': {
        'a body over 16 KB': [withFields({ full_name: 'x'.repeat(20_000) })],
      },
      '415 PGRST102': {
        'text/plain': [
          withHeaders({ ...anonHeaders, 'Content-Type': 'text/plain' }),
          /Content-Type not acceptable: text\/plain/,
        ],
        'no content type': [() => post(new Blob([JSON.stringify(sampleBooking)]), anonHeaders)],
      },
    };
    const cases = Object.entries(refusals).flatMap(([answer, requests]) =>
      Object.entries(requests).map(([name, [send, message]]) => ({ name, answer, send, message })),
    );

    it.each(cases)('$name: $answer', async ({ answer, send, message }) => {
      const [status, code] = answer.split(' ');
      const error = await expectApiError(await send(), Number(status), code!);
      if (message) expect(`${error.message} ${error.details}`).toMatch(message);
      expect(await storedRows()).toHaveLength(0);
      expect(logged).toEqual([]);
    });

    it('puts the form messages of every broken rule in details', async () => {
      const error = await expectApiError(
        await post({ full_name: '', phone: 'abc1234567', email: 'a b@c.co', instagram: null }),
        400,
        '23514',
      );
      expect(error.details).toBe(
        'full_name: Full name is required; phone: Please enter a valid phone number; email: Please enter a valid email address',
      );
    });

    it('refuses a chunked body over 16 KB without reading all of it', async () => {
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          `${api()}/bookings`,
          { method: 'POST', headers: anonJsonHeaders },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        const chunk = Buffer.alloc(8 * 1024, 0x20);
        // Keeps sending until answered: the server must answer before the body ends.
        const pump = () => {
          while (!req.destroyed && req.write(chunk));
          if (!req.destroyed) req.once('drain', pump);
        };
        pump();
      });
      expect(status).toBe(413);
      expect(await storedRows()).toHaveLength(0);
    });
  });

  it('refuses anonymous callers reading, updating or deleting, through the API', async () => {
    const id = crypto.randomUUID();
    await post({ ...sampleBooking, id });
    for (const method of ['GET', 'PATCH', 'PUT', 'DELETE']) {
      const response = await fetch(`${api()}/bookings?id=eq.${id}`, {
        method,
        headers: anonJsonHeaders,
        body: method === 'GET' ? undefined : JSON.stringify({ full_name: 'Changed' }),
      });
      const error = await expectApiError(response, 401, '42501');
      expect(error.message).toBe('permission denied for table bookings');
    }
    const head = await fetch(`${api()}/bookings`, { method: 'HEAD', headers: anonHeaders });
    expect(head.status).toBe(401);

    expect(await storedRows()).toEqual([expect.objectContaining({ id, full_name: 'Amina Khan' })]);
  });

  describe('the rest of /rest/v1', () => {
    it.each([
      ['GET', '/rest/v1/other', 404, 'PGRST205'],
      ['GET', '/rest/v1/bookings/1', 404, 'PGRST125'],
      ['GET', '/rest/v1', 404, 'PGRST125'],
      ['GET', '/rest/v1/', 404, 'PGRST125'],
      // An unknown function, as PostgREST answers it (rpc.ts holds the known ones).
      ['GET', '/rest/v1/rpc/anything', 404, 'PGRST202'],
      ['PROPFIND', '/rest/v1/bookings', 405, 'PGRST117'],
      // The functions under rpc/ answer no one without a key.
      ['POST', '/rest/v1/rpc/booking_challenge', 401, 'PGRST302', {}],
    ])('answers %s %s with %i', async (method, pathname, status, code, headers = anonHeaders) => {
      const body = method === 'POST' ? '{}' : undefined;
      const response = await fetch(`${app.baseUrl}${pathname}`, { method, headers, body });
      const error = await expectApiError(response, status, code);
      if (status === 405) expect(error.message).toBe('Unsupported HTTP method: PROPFIND');
    });

    it('answers a CORS preflight as Supabase does, so another origin can post', async () => {
      // x-booking-proof: the proof of work a booking carries during a flood.
      const requested =
        'apikey, authorization, content-type, content-profile, prefer, x-client-info, x-booking-proof';
      const response = await fetch(`${api()}/bookings`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://hijama.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': requested,
        },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toContain('POST');
      expect(response.headers.get('access-control-allow-headers')).toBe(requested);
      const posted = await post(sampleBooking, {
        ...anonJsonHeaders,
        Origin: 'https://hijama.example',
      });
      expect(posted.status).toBe(201);
      expect(posted.headers.get('access-control-allow-origin')).toBe('*');
      expect(posted.headers.get('access-control-expose-headers')).toContain('Content-Range');
    });
  });
});

describe('the booking API when the database fails', () => {
  let failure: Error = new Error('not expected');
  const logged: unknown[] = [];
  let server: RunningServer;
  beforeAll(async () => {
    // What the database answers is the failure of the moment: the engine plays no part.
    server = await serveApp({} as Database, {
      bookings: { insertAsAnon: () => Promise.reject(failure) },
      logError: (_message, error) => logged.push(error),
    });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    logged.length = 0;
  });

  const postWhenFailing = (error: Error) => {
    failure = error;
    return postBooking(server.baseUrl);
  };

  it.each([
    ['a check violation', '23514', 400],
    ['a not-null violation', '23502', 400],
    ['a unique violation', '23505', 409],
    ['a foreign-key violation', '23503', 409],
    ['a value out of range', '22003', 400],
    ['a string too long', '22001', 400],
  ])('answers %s in PostgREST shape, never 500', async (_case, code, status) => {
    const refused = new DatabaseError(code, 'refused by the database', 'why', undefined, undefined);
    const response = await postWhenFailing(refused);
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({
      code,
      message: 'refused by the database',
      details: 'why',
      hint: null,
    });
  });

  // That a real outage comes here, quickly, is outage.test.ts's.
  it('answers 503 in PostgREST shape with a Retry-After when the database is unreachable', async () => {
    const response = await postWhenFailing(new DatabaseUnavailableError('connect ECONNREFUSED'));
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await expectApiError(response, 503, 'PGRST000')).toMatchObject({
      message: 'Database connection error. Retrying the connection.',
    });
    expect(logged).toEqual(['connect ECONNREFUSED']);
  });

  it('answers an unexpected failure with a logged 500 in PostgREST shape, without its details', async () => {
    const response = await postWhenFailing(new TypeError('secret internals'));
    expect(response.status).toBe(500);
    // The whole body: nothing of the error's own message.
    expect(await response.json()).toEqual({
      code: 'PGRSTX00',
      message: 'Internal server error',
      details: null,
      hint: null,
    });
    expect(logged).toHaveLength(1);
  });

  it('reports an unreachable PostgreSQL server at start', async () => {
    await expect(openPostgres('postgres://postgres@127.0.0.1:1/hijama')).rejects.toThrow(
      /Could not connect to PostgreSQL at 127\.0\.0\.1:1\/hijama/,
    );
  });
});
