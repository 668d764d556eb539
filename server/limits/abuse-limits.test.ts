import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { developmentAnonKey } from '../../core/api-defaults.ts';
import { createApp, type ApiLimits } from '../app.ts';
import { readBookingLimits, setBookingLimits } from '../db/booking-limits.ts';
import { createBookingsRepository, type BookingsRepository } from '../db/bookings-repository.ts';
import { DatabaseError } from '../db/database.ts';
import type { OpenedDatabase } from '../db/open-database.ts';
import { anonJsonHeaders, serve, testEngines, type RunningServer } from '../testing/helpers.ts';

/**
 * The limits on booking requests: the honeypot and the throttles kept by the
 * database (so that they also hold on hosted Supabase), and the server's own
 * per-address rate limit and load shedding.
 */

const keys = { anon: developmentAnonKey, serviceRole: undefined };
const headers = anonJsonHeaders;
const booking = (email: string, extra: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  full_name: 'Amina Khan',
  phone: '07700 900123',
  email,
  instagram: null,
  ...extra,
});
const errorKeys = ['code', 'details', 'hint', 'message'];

const engines = testEngines('limits', { perEmailPerHour: 3, perMinute: 6 });

describe.each(engines)("the database's limits on $name", (engine) => {
  let opened: OpenedDatabase;
  let cleanUp: () => Promise<void>;
  let server: RunningServer;
  let post: (body: unknown) => Promise<Response>;
  const storedCount = async (email?: string) => {
    const { rows } = await opened.db.query<{ count: number }>(
      'select count(*)::integer as count from public.bookings where $1::text is null or email = $1',
      [email ?? null],
    );
    return rows[0]!.count;
  };

  beforeAll(async () => {
    ({ opened, cleanUp } = await engine.open());
    server = await serve(
      createApp({
        bookings: createBookingsRepository(opened.db),
        keys,
        distDir: mkdtempSync(path.join(tmpdir(), 'hijama-limits-dist-')),
      }),
    );
    post = (body) =>
      fetch(`${server.baseUrl}/rest/v1/bookings`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
  });
  afterAll(async () => {
    await server?.close();
    await opened?.close();
    await cleanUp?.();
  });
  beforeEach(async () => {
    await opened.db.query('delete from public.bookings');
    await setBookingLimits(opened.db, { perEmailPerHour: 3, perMinute: 6 });
  });

  it('answers a filled honeypot as if stored, and stores nothing, not even a notification', async () => {
    const response = await post(booking('robot@example.com', { website: 'https://spam.example' }));
    expect(response.status).toBe(201);
    expect(await storedCount()).toBe(0);
    const outbox = await opened.db.query('select 1 from app_private.booking_notifications');
    expect(outbox.rows).toHaveLength(0);
  });

  it('stores a request whose honeypot is empty, without keeping the field', async () => {
    const row = booking('person@example.com', { website: '  ' });
    expect((await post(row)).status).toBe(201);
    const { rows } = await opened.db.query<{ website: string | null }>(
      'select website from public.bookings where id = $1',
      [row.id],
    );
    expect(rows).toEqual([{ website: null }]);
  });

  it('refuses a fourth request for one e-mail address within the hour with 429, in any letter case', async () => {
    for (const email of ['amina@example.com', 'Amina@example.com', 'AMINA@EXAMPLE.COM']) {
      expect((await post(booking(email))).status).toBe(201);
    }
    const refused = await post(booking('amina@Example.com'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    const body = (await refused.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(errorKeys);
    expect(body).toMatchObject({
      code: 'PT429',
      message: 'Too many booking requests for this e-mail address',
    });
    expect(await storedCount()).toBe(3);
    // Another visitor is not held back by the first one.
    expect((await post(booking('other@example.com'))).status).toBe(201);
  });

  it('answers the retry of a stored request with 409, not 429, so that the site takes it as sent', async () => {
    const rows = [1, 2, 3].map(() => booking('retry@example.com'));
    for (const row of rows) expect((await post(row)).status).toBe(201);
    const retry = await post(rows[2]);
    expect(retry.status).toBe(409);
    expect(((await retry.json()) as { code: string }).code).toBe('23505');
  });

  it('refuses more than the per-minute cap for the whole site', async () => {
    for (let i = 0; i < 6; i += 1) {
      expect((await post(booking(`visitor${i}@example.com`))).status).toBe(201);
    }
    const refused = await post(booking('seventh@example.com'));
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toBe(
      'Too many booking requests at the moment',
    );
    expect(await storedCount()).toBe(6);
  });

  it('counts only the last hour and the last minute', async () => {
    for (let i = 0; i < 6; i += 1) await post(booking(`early${i % 3}@example.com`));
    await opened.db.query(`update public.bookings set created_at = now() - interval '61 minutes'`);
    expect((await post(booking('early0@example.com'))).status).toBe(201);
  });

  it('holds for a direct insert as anon, as on hosted Supabase, without the server', async () => {
    await setBookingLimits(opened.db, { perEmailPerHour: 1 });
    const insert = (row: ReturnType<typeof booking>) =>
      opened.db.transaction(async (tx) => {
        await tx.query('set local role anon');
        await tx.query(
          'insert into public.bookings (id, full_name, phone, email) values ($1, $2, $3, $4)',
          [row.id, row.full_name, row.phone, row.email],
        );
      });
    await insert(booking('direct@example.com'));
    const refused = await insert(booking('direct@example.com')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DatabaseError);
    expect((refused as DatabaseError).code).toBe('PT429');
  });

  it('lets anon neither read nor change the limits', async () => {
    const attempt = (sql: string) =>
      opened.db
        .transaction(async (tx) => {
          await tx.query('set local role anon');
          await tx.query(sql);
        })
        .catch((error: unknown) => error);
    for (const sql of [
      'select * from app_private.booking_limits',
      'update app_private.booking_limits set per_minute = 0',
    ]) {
      expect(((await attempt(sql)) as DatabaseError).code).toBe('42501');
    }
  });

  it('switches a limit off with 0 and keeps the other as stored', async () => {
    await setBookingLimits(opened.db, { perEmailPerHour: 0 });
    expect(await readBookingLimits(opened.db)).toEqual({ perEmailPerHour: 0, perMinute: 6 });
    for (let i = 0; i < 5; i += 1) {
      expect((await post(booking('many@example.com'))).status).toBe(201);
    }
  });
});

describe("the server's own limits", () => {
  const limits: ApiLimits = { rateLimitPerMinute: 3, trustProxy: false, maxPendingRequests: 2 };
  let clock = 0;
  let release: () => void = () => {};
  let blocked: Promise<void> | undefined;
  /** Inserts waiting for `blocked`, i.e. requests the server is handling. */
  let waitingInserts = 0;
  const bookings: BookingsRepository = {
    insertAsAnon: async () => {
      waitingInserts += 1;
      try {
        await blocked;
      } finally {
        waitingInserts -= 1;
      }
    },
    selectForService: () => Promise.reject(new Error('unused')),
    deleteForService: () => Promise.reject(new Error('unused')),
  };

  async function start(overrides: Partial<ApiLimits>) {
    return serve(
      createApp({
        bookings,
        keys,
        distDir: mkdtempSync(path.join(tmpdir(), 'hijama-limits-dist-')),
        limits: { ...limits, ...overrides },
        now: () => clock,
      }),
    );
  }
  const send = (server: RunningServer, extra: Record<string, string> = {}, method = 'POST') =>
    fetch(`${server.baseUrl}/rest/v1/bookings`, {
      method,
      headers: { ...headers, ...extra },
      body: method === 'POST' ? JSON.stringify(booking(`r${Math.random()}@example.com`)) : null,
    });

  it('answers the requests of one address over the rate with 429, Retry-After and a PostgREST body', async () => {
    const server = await start({ maxPendingRequests: 100 });
    try {
      clock = 0;
      // Preflights do not count.
      for (let i = 0; i < 5; i += 1) expect((await send(server, {}, 'OPTIONS')).status).toBe(200);
      for (let i = 0; i < 3; i += 1) expect((await send(server)).status).toBe(201);
      const refused = await send(server);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('20');
      expect(refused.headers.get('access-control-allow-origin')).toBe('*');
      const body = (await refused.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(errorKeys);
      expect(body.code).toBe('PT429');
      // The site is still served; one more request is allowed once its token is back.
      expect((await fetch(server.baseUrl)).status).not.toBe(429);
      clock = 20_000;
      expect((await send(server)).status).toBe(201);
    } finally {
      await server.close();
    }
  });

  it("counts the proxy's X-Forwarded-For address when told to trust the proxy", async () => {
    const server = await start({ trustProxy: true, maxPendingRequests: 100 });
    try {
      clock = 0;
      const from = (address: string) => ({ 'X-Forwarded-For': `198.51.100.7, ${address}` });
      for (let i = 0; i < 3; i += 1)
        expect((await send(server, from('203.0.113.1'))).status).toBe(201);
      expect((await send(server, from('203.0.113.1'))).status).toBe(429);
      expect((await send(server, from('203.0.113.2'))).status).toBe(201);
    } finally {
      await server.close();
    }
  });

  it('sheds requests beyond the pending limit with 503 instead of queueing them, and recovers', async () => {
    const server = await start({ rateLimitPerMinute: 0 });
    try {
      blocked = new Promise((resolve) => (release = resolve));
      const waiting = [send(server), send(server)];
      // Both are inside the handler once the database has been asked.
      await expect.poll(() => waitingInserts, { timeout: 5_000 }).toBe(2);
      const shed = await send(server);
      expect(shed.status).toBe(503);
      expect(shed.headers.get('retry-after')).toBe('2');
      expect(((await shed.json()) as { code: string }).code).toBe('PT503');
      release();
      blocked = undefined;
      expect((await Promise.all(waiting)).map((response) => response.status)).toEqual([201, 201]);
      expect((await send(server)).status).toBe(201);
    } finally {
      release();
      await server.close();
    }
  });
});
