import { storedValue } from '../supabase/functions/_shared/core/booking-rules.ts';
import { readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { PostgrestClient } from '@supabase/postgrest-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { developmentAnonKey } from '../supabase/functions/_shared/core/api-defaults.ts';
import {
  bookingFieldRules,
  bookingFields,
  hiddenCharacterRanges,
  messageFor,
} from '../supabase/functions/_shared/core/booking-rules.ts';
import { createApp } from './app.ts';
import type { BookingsRepository } from '../supabase/functions/_shared/db/bookings-repository.ts';
import {
  DatabaseError,
  DatabaseUnavailableError,
} from '../supabase/functions/_shared/db/database.ts';
import { findMigrationsDir, migrate } from './db/migrate.ts';
import { useTestDatabase } from './testing/test-database.ts';
import { openPostgres } from '../supabase/functions/_shared/db/postgres.ts';
import { serve, testEngines, type RunningServer, serveApp } from './testing/helpers.ts';

const anonKey = developmentAnonKey;
const anonHeaders = { apikey: anonKey, Authorization: `Bearer ${anonKey}` };
const jsonHeaders = { ...anonHeaders, 'Content-Type': 'application/json' };

const validBooking = {
  full_name: 'Amina Khan',
  phone: '+44 (0) 1634 123 456',
  email: 'amina@example.com',
  instagram: '@amina.k',
};

const engines = testEngines('api');

describe.each(engines)('the booking API on $name', (engine) => {
  const opened = useTestDatabase(engine);
  let server: RunningServer;
  let api: string;
  const logged: unknown[] = [];

  beforeAll(async () => {
    server = await serveApp(opened.db, {
      logError: (_message, error) => logged.push(error),
    });
    api = `${server.baseUrl}/rest/v1`;
  });

  afterAll(async () => {
    await server?.close();
  });

  beforeEach(async () => {
    await opened.db.query('delete from public.bookings');
    logged.length = 0;
  });

  async function storedRows() {
    const { rows } = await opened.db.query<Record<string, unknown>>(
      'select id::text, full_name, phone, email, instagram, created_at from public.bookings order by created_at, full_name',
    );
    return rows;
  }

  function post(body: unknown, headers: Record<string, string> = jsonHeaders, query = '') {
    return fetch(`${api}/bookings${query}`, {
      method: 'POST',
      headers,
      body: typeof body === 'string' || body instanceof Blob ? body : JSON.stringify(body),
    });
  }

  async function expectPostgrestError(response: Response, status: number, code: string) {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['code', 'details', 'hint', 'message']);
    expect(body.code).toBe(code);
    expect(typeof body.message).toBe('string');
    return body as { code: string; message: string; details: string | null; hint: string | null };
  }

  describe('inserting', () => {
    it('stores a valid booking exactly: trimmed, an empty Instagram as null, created_at from the clock', async () => {
      const id = crypto.randomUUID();
      const before = Date.now();
      const response = await post({
        id,
        full_name: '  Amina Khan ',
        phone: ' +44 (0) 1634 123 456 ',
        email: ' amina@example.com',
        instagram: '   ',
      });
      expect(response.status).toBe(201);
      expect(await response.text()).toBe('');

      const rows = await storedRows();
      expect(rows).toHaveLength(1);
      const { created_at, ...row } = rows[0]!;
      expect(row).toEqual({
        id,
        full_name: 'Amina Khan',
        phone: '+44 (0) 1634 123 456',
        email: 'amina@example.com',
        instagram: null,
      });
      expect(created_at).toBeInstanceOf(Date);
      expect((created_at as Date).getTime()).toBeGreaterThanOrEqual(before - 5_000);
      expect((created_at as Date).getTime()).toBeLessThanOrEqual(Date.now() + 5_000);
    });

    it('stores the Instagram handle normalised, as the form does, and generates an id when none is sent', async () => {
      const response = await post({ ...validBooking, instagram: '  @Amina.K ' });
      expect(response.status).toBe(201);
      const [row] = await storedRows();
      expect(row).toMatchObject({ instagram: storedValue('instagram', '@Amina.K') });
      expect(row!.instagram).toBe('amina.k');
      expect(row!.id).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('accepts exactly what postgrest-js sends, and answers a retry with 23505', async () => {
      const client = new PostgrestClient(api, { headers: anonHeaders, schema: 'public' });
      const row = { id: crypto.randomUUID(), ...validBooking, instagram: null };
      const first = await client.from('bookings').insert(row);
      expect(first.error).toBeNull();
      expect(first.status).toBe(201);

      const retry = await client.from('bookings').insert(row);
      expect(retry.status).toBe(409);
      expect(retry.error?.code).toBe('23505');
      expect(await storedRows()).toHaveLength(1);
    });

    it('stores one row when the same id is sent twice (a retry after a lost answer)', async () => {
      const row = { id: crypto.randomUUID(), ...validBooking };
      expect((await post(row)).status).toBe(201);
      const retry = await expectPostgrestError(await post(row), 409, '23505');
      expect(retry.message).toContain('bookings_pkey');
      expect(await storedRows()).toHaveLength(1);
    });

    it('stores one row when retries with the same id arrive at the same time', async () => {
      const row = { id: crypto.randomUUID(), ...validBooking };
      const statuses = await Promise.all(
        Array.from({ length: 5 }, async () => (await post(row)).status),
      );
      expect(statuses.sort()).toEqual([201, 409, 409, 409, 409]);
      expect(await storedRows()).toHaveLength(1);
    });

    it('stores concurrent bookings independently', async () => {
      const statuses = await Promise.all(
        Array.from(
          { length: 20 },
          async (_, i) => (await post({ ...validBooking, full_name: `Guest ${i}` })).status,
        ),
      );
      expect(new Set(statuses)).toEqual(new Set([201]));
      expect(await storedRows()).toHaveLength(20);
    });

    it('refuses an array of two bookings with the anon key, and stores nothing', async () => {
      const client = new PostgrestClient(api, { headers: anonHeaders });
      const { error, status } = await client.from('bookings').insert([
        { ...validBooking, id: crypto.randomUUID() },
        { ...validBooking, id: crypto.randomUUID(), full_name: 'Yusuf Ali', instagram: null },
      ]);
      expect(status).toBe(400);
      expect(error).toMatchObject({ code: 'PT400', message: 'Send one booking request at a time' });
      expect(await storedRows()).toHaveLength(0);
    });

    it('refuses an array of two bookings inserted as anon straight into the table, as on hosted Supabase', async () => {
      const refused = await opened.db
        .transaction(async (tx) => {
          await tx.query('set local role anon');
          await tx.query(
            `insert into public.bookings (full_name, phone, email)
             values ('Amina Khan', '07700 900123', 'a@example.com'), ('Yusuf Ali', '07700 900124', 'y@example.com')`,
          );
        })
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: 'PT400' });
      expect(await storedRows()).toHaveLength(0);
    });

    it('refuses an id that is already stored, without touching the stored row', async () => {
      const id = crypto.randomUUID();
      await post({ ...validBooking, id });
      await expectPostgrestError(
        await post({ ...validBooking, id, full_name: 'Someone Else' }),
        409,
        '23505',
      );
      expect((await storedRows())[0]).toMatchObject({ full_name: 'Amina Khan' });
    });
  });

  it('tells every cache to keep none of its answers, and every browser to read them as sent', async () => {
    const answers = [
      await post(validBooking),
      await fetch(`${api}/bookings`, { method: 'OPTIONS' }),
      await fetch(`${api}/bookings?select=*`, { headers: anonHeaders }),
      await fetch(`${api}/nothing`, { headers: anonHeaders }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([201, 200, 401, 404]);
    for (const answer of answers) {
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  describe('refusing hidden characters', () => {
    it("refuses every class of hidden character in every field with 400 and the field's message", async () => {
      const unexpected: string[] = [];
      for (const field of bookingFields) {
        const { column } = bookingFieldRules[field];
        for (const [first, last] of hiddenCharacterRanges) {
          for (const point of new Set([Math.max(first, 1), last])) {
            const value = `${validBooking[column].slice(0, 3)}${String.fromCodePoint(point)}${validBooking[column].slice(3)}`;
            const response = await post({ ...validBooking, [column]: value });
            const body = (await response.json()) as { code: string; details: string };
            const expected = `${column}: ${messageFor(field, 'invalid')}`;
            if (response.status !== 400 || body.code !== '23514' || body.details !== expected) {
              unexpected.push(
                `${column} U+${point.toString(16)}: ${response.status} ${body.details}`,
              );
            }
          }
        }
      }
      expect(unexpected).toEqual([]);
      expect(await storedRows()).toHaveLength(0);
    });
  });

  describe('refusing bad input with a PostgREST error and storing nothing', () => {
    const long = (length: number) => 'x'.repeat(length);
    const cases: [string, () => Promise<Response>, number, string, RegExp?][] = [
      [
        'invalid JSON',
        () => post('{"full_name": "Amina"'),
        400,
        'PGRST102',
        /Empty or invalid json/,
      ],
      ['an empty body', () => post(''), 400, 'PGRST102'],
      ['a JSON string', () => post('"Amina Khan"'), 400, 'PGRST102'],
      ['JSON null', () => post('null'), 400, 'PGRST102'],
      ['an array holding a non-object', () => post([validBooking, 42]), 400, 'PGRST102'],
      [
        'objects with different keys',
        () => post([validBooking, { full_name: 'A' }]),
        400,
        'PGRST102',
        /All object keys must match/,
      ],
      [
        'invalid UTF-8',
        () => post(new Blob([new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])])),
        400,
        'PGRST102',
      ],
      [
        'an unknown column',
        () => post({ ...validBooking, notes: 'hello' }),
        400,
        'PGRST204',
        /Could not find the 'notes' column of 'bookings'/,
      ],
      [
        'an unknown column named in ?columns',
        () => post([validBooking], jsonHeaders, '?columns="full_name","notes"'),
        400,
        'PGRST204',
      ],
      [
        'a created_at chosen by the caller',
        () => post({ ...validBooking, created_at: '2020-01-01T00:00:00Z' }),
        401,
        '42501',
      ],
      [
        'a missing phone',
        () => post({ full_name: 'A', email: 'a@b.co' }),
        400,
        '23502',
        /null value in column "phone"/,
      ],
      ['a null email', () => post({ ...validBooking, email: null }), 400, '23502'],
      [
        'letters in the phone',
        () => post({ ...validBooking, phone: 'abc1234567' }),
        400,
        '23514',
        /bookings_phone_check/,
      ],
      [
        'an Instagram handle over 60 characters',
        () => post({ ...validBooking, instagram: long(61) }),
        400,
        '23514',
        /bookings_instagram_check/,
      ],
      [
        'a number as the phone',
        () => post({ ...validBooking, phone: 1634123456 }),
        400,
        'PGRST102',
        /expected a string/,
      ],
      [
        'an object as the name',
        () => post({ ...validBooking, full_name: { first: 'A' } }),
        400,
        'PGRST102',
      ],
      [
        'a number as the Instagram handle',
        () => post({ ...validBooking, instagram: 5 }),
        400,
        'PGRST102',
      ],
      [
        'a NUL character',
        () => post({ ...validBooking, full_name: 'Amina\u0000Khan' }),
        400,
        'PGRST102',
      ],
      [
        'a lone surrogate',
        () => post(`{"full_name":"A\\ud800","phone":"01634123456","email":"a@b.co"}`),
        400,
        'PGRST102',
      ],
      [
        'an id that is not a uuid',
        () => post({ ...validBooking, id: 'booking-1' }),
        400,
        '22P02',
        /invalid input syntax for type uuid/,
      ],
      ['a numeric id', () => post({ ...validBooking, id: 7 }), 400, '22P02'],
      [
        'text/plain',
        () => post(validBooking, { ...anonHeaders, 'Content-Type': 'text/plain' }),
        415,
        'PGRST102',
        /Content-Type not acceptable: text\/plain/,
      ],
      [
        'a form post',
        () =>
          post('full_name=A', {
            ...anonHeaders,
            'Content-Type': 'application/x-www-form-urlencoded',
          }),
        415,
        'PGRST102',
      ],
      [
        'no content type',
        () => post(new Blob([JSON.stringify(validBooking)]), anonHeaders),
        415,
        'PGRST102',
      ],
      [
        'a request to return the row',
        () => post(validBooking, { ...jsonHeaders, Prefer: 'return=representation' }),
        401,
        '42501',
      ],
      [
        'a request for the row location',
        () => post(validBooking, { ...jsonHeaders, Prefer: 'return=headers-only' }),
        401,
        '42501',
      ],
      [
        'an upsert',
        () => post(validBooking, { ...jsonHeaders, Prefer: 'resolution=ignore-duplicates' }),
        401,
        '42501',
      ],
      [
        'another schema',
        () => post(validBooking, { ...jsonHeaders, 'Content-Profile': 'private' }),
        406,
        'PGRST106',
      ],
      ['a body over 16 KB', () => post({ ...validBooking, full_name: long(20_000) }), 413, '54000'],
      [
        'no apikey',
        () => post(validBooking, { 'Content-Type': 'application/json' }),
        401,
        'PGRST302',
        /No API key found/,
      ],
      [
        'a wrong apikey',
        () => post(validBooking, { apikey: 'guess', 'Content-Type': 'application/json' }),
        401,
        'PGRST301',
        /Invalid API key/,
      ],
      [
        'a wrong bearer token',
        () => post(validBooking, { ...jsonHeaders, Authorization: 'Bearer guess' }),
        401,
        'PGRST301',
      ],
      [
        'a malformed Authorization header',
        () => post(validBooking, { ...jsonHeaders, Authorization: anonKey }),
        401,
        'PGRST301',
      ],
    ];

    it.each(cases)('%s', async (_case, send, status, code, message) => {
      const error = await expectPostgrestError(await send(), status, code);
      if (message) expect(`${error.message} ${error.details}`).toMatch(message);
      expect(await storedRows()).toHaveLength(0);
      expect(logged).toEqual([]);
    });

    it('puts the form messages of every broken rule in details', async () => {
      const error = await expectPostgrestError(
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
          `${api}/bookings`,
          { method: 'POST', headers: jsonHeaders },
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

  describe('anonymous callers', () => {
    it('cannot read, update or delete, through the API', async () => {
      const id = crypto.randomUUID();
      await post({ ...validBooking, id });
      for (const method of ['GET', 'PATCH', 'PUT', 'DELETE']) {
        const response = await fetch(`${api}/bookings?id=eq.${id}`, {
          method,
          headers: jsonHeaders,
          body: method === 'GET' ? undefined : JSON.stringify({ full_name: 'Changed' }),
        });
        const error = await expectPostgrestError(response, 401, '42501');
        expect(error.message).toBe('permission denied for table bookings');
      }
      const head = await fetch(`${api}/bookings`, { method: 'HEAD', headers: anonHeaders });
      expect(head.status).toBe(401);

      const client = new PostgrestClient(api, { headers: anonHeaders });
      expect((await client.from('bookings').select('*')).error?.code).toBe('42501');
      expect(
        (await client.from('bookings').update({ full_name: 'Changed' }).eq('id', id)).error?.code,
      ).toBe('42501');
      expect((await client.from('bookings').delete().eq('id', id)).error?.code).toBe('42501');
      expect(await storedRows()).toEqual([
        expect.objectContaining({ id, full_name: 'Amina Khan' }),
      ]);
    });

    it('cannot read, update or delete, in the database itself', async () => {
      const id = crypto.randomUUID();
      await post({ ...validBooking, id });
      for (const sql of [
        'select * from public.bookings',
        `update public.bookings set full_name = 'Changed'`,
        'delete from public.bookings',
      ]) {
        const attempt = opened.db.transaction(async (tx) => {
          await tx.query('set local role anon');
          await tx.query(sql);
        });
        await expect(attempt).rejects.toMatchObject({ code: '42501' });
      }
      expect(await storedRows()).toHaveLength(1);
    });
  });

  describe('the rest of /rest/v1', () => {
    it.each([
      ['/rest/v1/other', 404, 'PGRST205'],
      ['/rest/v1/bookings/1', 404, 'PGRST125'],
      ['/rest/v1', 404, 'PGRST125'],
      ['/rest/v1/', 404, 'PGRST125'],
      // An unknown function, as PostgREST answers it (booking-challenge.ts and mark-answered.ts are the known ones).
      ['/rest/v1/rpc/anything', 404, 'PGRST202'],
    ])('answers %s with %i', async (pathname, status, code) => {
      await expectPostgrestError(
        await fetch(`${server.baseUrl}${pathname}`, { headers: anonHeaders }),
        status,
        code,
      );
    });

    it('answers an unknown method with 405', async () => {
      const { status, body } = await new Promise<{ status: number; body: string }>(
        (resolve, reject) => {
          const req = httpRequest(
            `${api}/bookings`,
            { method: 'PROPFIND', headers: anonHeaders },
            (res) => {
              let text = '';
              res.on('data', (chunk: Buffer) => (text += chunk.toString()));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
            },
          );
          req.on('error', reject);
          req.end();
        },
      );
      expect(status).toBe(405);
      expect(JSON.parse(body)).toMatchObject({
        code: 'PGRST117',
        message: 'Unsupported HTTP method: PROPFIND',
      });
    });

    it('answers a CORS preflight as Supabase does, so another origin can post', async () => {
      const response = await fetch(`${api}/bookings`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://hijama.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers':
            'apikey, authorization, content-type, content-profile, prefer, x-client-info',
        },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toContain('POST');
      expect(response.headers.get('access-control-allow-headers')).toBe(
        'apikey, authorization, content-type, content-profile, prefer, x-client-info',
      );
      const posted = await post(validBooking, { ...jsonHeaders, Origin: 'https://hijama.example' });
      expect(posted.status).toBe(201);
      expect(posted.headers.get('access-control-allow-origin')).toBe('*');
      expect(posted.headers.get('access-control-expose-headers')).toContain('Content-Range');
    });
  });

  describe('migrations', () => {
    async function schemaSnapshot() {
      const queries = [
        `select column_name, data_type, is_nullable, column_default from information_schema.columns
          where table_schema = 'public' and table_name = 'bookings' order by ordinal_position`,
        `select conname, pg_get_constraintdef(oid) from pg_constraint where conrelid = 'public.bookings'::regclass order by conname`,
        `select policyname, cmd, roles::text, qual, with_check from pg_policies where tablename = 'bookings' order by policyname`,
        `select grantee, privilege_type from information_schema.role_table_grants
          where table_name = 'bookings' and grantee in ('anon', 'authenticated', 'service_role') order by 1, 2`,
        `select grantee, privilege_type, column_name from information_schema.column_privileges
          where table_name = 'bookings' and grantee in ('anon', 'authenticated') order by 1, 2, 3`,
        `select relrowsecurity from pg_class where oid = 'public.bookings'::regclass`,
        `select name, checksum from app_private.schema_migrations order by name`,
      ];
      const results = [];
      for (const sql of queries) results.push((await opened.db.query(sql)).rows);
      return results;
    }

    it('were applied once, recorded outside the API schema, and rerunning them changes nothing', async () => {
      const id = crypto.randomUUID();
      await post({ ...validBooking, id });
      const before = await schemaSnapshot();
      const files = readdirSync(findMigrationsDir()).filter((name) => name.endsWith('.sql'));
      expect(files.length).toBeGreaterThan(3);
      expect(before.at(-1)).toEqual(
        files.sort().map((name) => ({ name, checksum: expect.any(String) })),
      );

      expect(await migrate(opened.db)).toEqual({ applied: [], changed: [] });
      expect(await schemaSnapshot()).toEqual(before);
      expect(await storedRows()).toEqual([expect.objectContaining({ id })]);
    });
  });
});

describe('the booking API when the database fails', () => {
  function appWith(bookings: Partial<BookingsRepository>, logged: unknown[] = []) {
    const fail = () => Promise.reject(new Error('not expected'));
    return serve(
      createApp({
        bookings: {
          insertAsAnon: fail,
          ...bookings,
        },
        anonKey,
        distDir: tmpdir(),
        logError: (_message, error) => logged.push(error),
      }),
    );
  }

  async function postTo(server: RunningServer) {
    return fetch(`${server.baseUrl}/rest/v1/bookings`, {
      method: 'POST',
      headers: jsonHeaders,
      body: JSON.stringify(validBooking),
    });
  }

  it.each([
    ['a check violation', '23514', 400],
    ['a not-null violation', '23502', 400],
    ['a unique violation', '23505', 409],
    ['a foreign-key violation', '23503', 409],
    ['a value out of range', '22003', 400],
    ['a string too long', '22001', 400],
  ])('answers %s in PostgREST shape, never 500', async (_case, code, status) => {
    const server = await appWith({
      insertAsAnon: () =>
        Promise.reject(
          new DatabaseError(code, 'refused by the database', 'why', undefined, undefined),
        ),
    });
    try {
      const response = await postTo(server);
      expect(response.status).toBe(status);
      expect(await response.json()).toEqual({
        code,
        message: 'refused by the database',
        details: 'why',
        hint: null,
      });
    } finally {
      await server.close();
    }
  });

  it('answers 503 when the database is unreachable', async () => {
    const logged: unknown[] = [];
    const server = await appWith(
      { insertAsAnon: () => Promise.reject(new DatabaseUnavailableError('connect ECONNREFUSED')) },
      logged,
    );
    try {
      const response = await postTo(server);
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ code: 'PGRST000' });
      expect(logged).toEqual(['connect ECONNREFUSED']);
    } finally {
      await server.close();
    }
  });

  it('answers an unexpected failure with a logged 500 in PostgREST shape, without its details', async () => {
    const logged: unknown[] = [];
    const server = await appWith(
      { insertAsAnon: () => Promise.reject(new TypeError('secret internals')) },
      logged,
    );
    try {
      const response = await postTo(server);
      expect(response.status).toBe(500);
      const body = await response.text();
      expect(JSON.parse(body)).toEqual({
        code: 'PGRSTX00',
        message: 'Internal server error',
        details: null,
        hint: null,
      });
      expect(body).not.toContain('secret');
      expect(logged).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('reports an unreachable PostgreSQL server at start', async () => {
    await expect(openPostgres('postgres://postgres@127.0.0.1:1/hijama')).rejects.toThrow(
      /Could not connect to PostgreSQL at 127\.0\.0\.1:1\/hijama/,
    );
  });
});
