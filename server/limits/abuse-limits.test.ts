import { encodeBookingProof } from '../../supabase/functions/_shared/core/booking-proof.ts';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiLimits } from '../app.ts';
import { readBookingLimits, setBookingLimits, type BookingLimits } from '../db/booking-limits.ts';
import {
  databaseRequestHeaders,
  type BookingsRepository,
} from '../../supabase/functions/_shared/db/bookings-repository.ts';
import {
  DatabaseError,
  queryAsAnonInTransaction,
  type Database,
} from '../../supabase/functions/_shared/db/database.ts';
import { callApiFunction } from '../../supabase/functions/_shared/db/api-function.ts';
import { countedNetworks, expectApiError, useTestApp } from '../testing/test-database.ts';
import { tooManyRequestsAnswer } from '../http/api-errors.ts';
import {
  signedChallenge,
  solveBookingChallenge,
  type BookingChallenge,
} from '../testing/booking-proof.ts';
import { anonJsonHeaders, postBookingFrom, serveApp, testEngines } from '../testing/helpers.ts';
import { defaultLimits } from './limits-config.ts';
import { bookingWithId } from '../testing/booking-samples.ts';

/**
 * The limits on booking requests: the honeypot and the throttles kept by the
 * database (so that they also hold on hosted Supabase), and the server's own
 * per-address rate limit and load shedding.
 */

const booking = (email: string, extra: Record<string, unknown> = {}) =>
  bookingWithId({ email, ...extra });

// The limits as a new database has them.
const engines = testEngines('limits', {});

/** The body of every limit's 429: the database's and the server's own say the same. */
const limited = { ...tooManyRequestsAnswer, details: null };

describe.each(engines)("the database's limits on $name", (engine) => {
  // The server's own limits (per address a minute, and at once) are off: they are
  // the describe below's, and would refuse some of a burst before the database saw it.
  const app = useTestApp(engine, () => ({
    limits: { ...defaultLimits, rateLimitPerMinute: 0, trustProxy: [] },
  }));
  let defaults: BookingLimits;
  const from = (address: string, body: unknown) => postBookingFrom(app.baseUrl, address, body);
  const storedCount = async () => {
    const { rows } = await app.db.query<{ count: number }>(
      'select count(*)::integer as count from public.bookings',
    );
    return rows[0]!.count;
  };
  /** An insert straight into the table as anon, as PostgREST makes it on hosted Supabase. */
  const insertAsAnonWith = (
    requestHeaders: Record<string, string>,
    rows: ReturnType<typeof booking>[],
  ) =>
    app.db
      .transaction(async (tx) => {
        await tx.query('set local role anon');
        await tx.query(`select set_config('request.headers', $1, true)`, [
          JSON.stringify(requestHeaders),
        ]);
        await tx.query(
          `insert into public.bookings (id, full_name, phone, email)
           select * from unnest($1::uuid[], $2::text[], $3::text[], $4::text[])`,
          (['id', 'full_name', 'phone', 'email'] as const).map((column) =>
            rows.map((row) => row[column]),
          ),
        );
      })
      .then(
        () => 'stored',
        (error: unknown) => (error instanceof DatabaseError ? error.code : error),
      );
  /**
   * The request headers of a client at `address` (in cf-connecting-ip, as on
   * hosted Supabase), or of one with none.
   */
  const clientAt = (address?: string): Record<string, string> =>
    address === undefined ? {} : { [databaseRequestHeaders.clientAddress]: address };
  const insertAsAnonFrom = (address: string, rows: ReturnType<typeof booking>[]) =>
    insertAsAnonWith(clientAt(address), rows);
  /** A challenge as anon gets it from rpc/booking_challenge, for a client at `address`. */
  const challengeAsAnon = (address?: string) =>
    callApiFunction<BookingChallenge>(app.db, 'public.booking_challenge()', [], {
      requestHeaders: clientAt(address),
    });
  /** An insert as anon from `address` (undefined: no client address) carrying `proof`. */
  const withProof = (address: string | undefined, proof: string, email: string) =>
    insertAsAnonWith({ ...clientAt(address), [databaseRequestHeaders.proof]: proof }, [
      booking(email),
    ]);
  /** As withProof, with a proof solved for `provedFor` (null: a client without an address). */
  const insertWithProof = async (
    address: string | undefined,
    email: string,
    provedFor: string | null | undefined = address,
  ) => {
    const challenge = await challengeAsAnon(provedFor ?? undefined);
    return withProof(
      address,
      encodeBookingProof(challenge, solveBookingChallenge(challenge)),
      email,
    );
  };

  /** Past the site's hourly threshold of one request: from here on, every request needs a proof. */
  const flood = async () => {
    await setBookingLimits(app.db, { sitePerHour: 1 });
    expect(await insertAsAnonFrom('192.0.2.1', [booking('first@example.com')])).toBe('stored');
  };

  beforeAll(async () => {
    defaults = await readBookingLimits(app.db);
  });
  beforeEach(async () => {
    await app.db.exec(
      `delete from public.bookings; delete from app_private.booking_clients;
       delete from app_private.messages; delete from app_private.booking_proofs_used;`,
    );
    await setBookingLimits(app.db, defaults);
  });

  it('answers a filled honeypot as if stored, storing nothing, not even a notification, and stores a request whose honeypot is empty without the field', async () => {
    const robot = booking('robot@example.com', { website: 'https://spam.example' });
    expect((await from('127.0.0.2', robot)).status).toBe(201);
    expect(await storedCount()).toBe(0);
    const outbox = await app.db.query(`select 1 from app_private.messages`);
    expect(outbox.rows).toHaveLength(0);

    const row = booking('person@example.com', { website: '  ' });
    expect((await from('127.0.0.2', row)).status).toBe(201);
    const { rows } = await app.db.query('select website from public.bookings where id = $1', [
      row.id,
    ]);
    expect(rows).toEqual([{ website: null }]);
  });

  it('stops one client sending as fast as it can, while another client still books', async () => {
    const burst = await Promise.all(
      Array.from({ length: 15 }, (_, i) => from('127.0.0.2', booking(`burst${i}@example.com`))),
    );
    const statuses = burst.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(defaults.perClientPerHour);
    expect(statuses.filter((status) => status === 429)).toHaveLength(
      15 - defaults.perClientPerHour,
    );
    expect(await storedCount()).toBe(defaults.perClientPerHour);
    // Another visitor is not held back by the first one.
    expect((await from('127.0.0.3', booking('someone.else@example.com'))).status).toBe(201);
  });

  // What an address that is not one counts as (unknown, as with none) is
  // client-network-sql.test.ts's; what an unknown client meets, the next test's.
  it('reads the address from cf-connecting-ip alone: X-Forwarded-For or X-Real-IP leave a client unknown', async () => {
    for (let n = 1; n <= 3; n += 1) {
      const spoofed = { 'x-forwarded-for': `198.51.100.${n}`, 'x-real-ip': `198.51.100.${n}` };
      expect(await insertAsAnonWith(spoofed, [booking(`shared${n}@example.com`)])).toBe('PT428');
    }
  });

  it('asks every request without a client address for a proof, never closes the form to them, and tells the practice once', async () => {
    const answers = [];
    for (let n = 1; n <= 20; n += 1) {
      answers.push(await insertWithProof(undefined, `nobody${n}@example.com`));
    }
    expect(answers).toEqual(Array(20).fill('stored'));
    expect(await countedNetworks(app.db)).toEqual(Array(20).fill('unknown'));
    // The bucket is the site's own hour (site_per_hour), not one network's 5.
    expect(await insertWithProof(undefined, 'nobody21@example.com')).toBe('PT429');
    const { rows } = await app.db.query<{ kind: string }>(
      'select kind from app_private.messages where booking_id is null order by id',
    );
    expect(rows.map((row) => row.kind)).toEqual(['no_client_address']);
  });

  it('refuses many requests in one insert at the second, before checking it, storing nothing', async () => {
    // The second row's phone breaks a check: the refusal comes first, as it
    // would for the thousandth row of a long array.
    expect(
      await insertAsAnonFrom('203.0.113.90', [
        booking('many-1@example.com'),
        booking('many-2@example.com', { phone: 'not a phone' }),
      ]),
    ).toBe('PT400');
    expect(await storedCount()).toBe(0);
    // One insert after another in one transaction is still one request each.
    await app.db.transaction(async (tx) => {
      await tx.query('set local role anon');
      await tx.query(`select set_config('request.headers', $1, true)`, [
        JSON.stringify(clientAt('203.0.113.91')),
      ]);
      for (const email of ['one-1@example.com', 'one-2@example.com']) {
        const { id, full_name, phone } = booking(email);
        await tx.query(
          'insert into public.bookings (id, full_name, phone, email) values ($1, $2, $3, $4)',
          [id, full_name, phone, email],
        );
      }
    });
    expect(await storedCount()).toBe(2);
  });

  it('refuses a fourth request for one e-mail address from one network within the hour, in any letter case', async () => {
    for (const email of ['amina@example.com', 'Amina@example.com', 'AMINA@EXAMPLE.COM']) {
      expect((await from('127.0.0.2', booking(email))).status).toBe(201);
    }
    const refused = await from('127.0.0.2', booking('amina@Example.com'));
    expect([refused.status, refused.body]).toEqual([429, limited]);
    expect(refused.headers['retry-after']).toBe('60');
    expect(await storedCount()).toBe(3);
    // Requests in her name from elsewhere do not lock her out.
    expect((await from('127.0.0.3', booking('amina@example.com'))).status).toBe(201);
  });

  it('answers a request that fails for its own reason with that reason, whatever its address or e-mail has done', async () => {
    const stored: ReturnType<typeof booking>[] = [];
    for (let i = 0; i < defaults.perClientPerHour; i += 1) {
      stored.push(booking(`full${i}@example.com`));
      expect((await from('127.0.0.2', stored[i])).status).toBe(201);
    }
    expect(await from('127.0.0.2', booking('next@example.com'))).toMatchObject({
      status: 429,
      body: limited,
    });
    // An e-mail address at its limit, from another network.
    for (let i = 0; i <= defaults.perEmailPerHour; i += 1) {
      const status = (await from('127.0.0.3', booking('victim@example.com'))).status;
      expect(status).toBe(i < defaults.perEmailPerHour ? 201 : 429);
    }
    const cases: [string, ReturnType<typeof booking>[], string][] = [
      ['127.0.0.2', [booking('x@example.com', { phone: null })], '23502'],
      ['127.0.0.2', [booking('x@example.com', { phone: '----------' })], '23514'],
      ['127.0.0.2', [booking('y@example.com'), booking('z@example.com')], 'PT400'],
      ['127.0.0.2', [stored[0]!], '23505'],
      ['127.0.0.3', [booking('victim@example.com', { phone: '12' })], '23514'],
    ];
    for (const [address, rows, code] of cases) {
      // Through the server, and straight into the table as hosted Supabase would insert them.
      const answer = await from(address, rows.length === 1 ? rows[0] : rows);
      expect([answer.status, answer.body?.code]).toEqual([code === '23505' ? 409 : 400, code]);
      expect(await insertAsAnonFrom(address, rows)).toBe(code);
    }
  });

  it('accepts as anon in SQL only a proof this database signed for the same network, unexpired and unused', async () => {
    await flood();
    const { rows } = await app.db.query<{ key: Buffer }>(
      'select hmac_key as key from app_private.booking_proof_key',
    );
    const key = Buffer.from(rows[0]!.key);
    const inAMinute = new Date(Date.now() + 60_000);
    const forged = signedChallenge(Buffer.alloc(32, 7), inAMinute, '192.0.2.3');
    // Signed with the database's own key, with an expiry just past, and one
    // further ahead than any challenge lives (2 minutes).
    const expired = signedChallenge(key, new Date(Date.now() - 1_000), '192.0.2.3');
    const tooLong = signedChallenge(key, new Date(Date.now() + 5 * 60_000), '192.0.2.3');
    const forAnother = signedChallenge(key, inAMinute, '192.0.2.99');
    const valid = signedChallenge(key, inAMinute, '192.0.2.3');

    expect(await insertAsAnonFrom('192.0.2.2', [booking('none@example.com')])).toBe('PT428');
    for (const proof of [
      ...[forged, expired, tooLong, forAnother].map((challenge) =>
        encodeBookingProof(challenge, 42),
      ),
      encodeBookingProof(valid, 43),
      'not base64 at all!',
      Buffer.from('[1, 2]').toString('base64'),
      Buffer.from(JSON.stringify({ ...valid, number: 42, algorithm: 'SHA-1' })).toString('base64'),
    ]) {
      expect(await withProof('192.0.2.3', proof, 'bad@example.com')).toBe('PT428');
    }
    const solved = encodeBookingProof(valid, 42);
    expect(await withProof('192.0.2.3', solved, 'good@example.com')).toBe('stored');
    expect(await withProof('192.0.2.3', solved, 'replay@example.com')).toBe('PT428');
    expect(await insertWithProof('192.0.2.6', 'solved@example.com')).toBe('stored');
  });

  // A proof for another IPv4 address is refused in the test above.
  it('refuses a proof solved for another /56 or for no address, and issues challenges that live 2 minutes', async () => {
    await flood();
    const v6 = '2001:db8:1:300::1';
    expect(await insertWithProof(v6, 'v6@example.com', '2001:db8:2::1')).toBe('PT428');
    expect(await insertWithProof('192.0.2.7', 'nowhere@example.com', null)).toBe('PT428');
    // One /56: the same network.
    expect(await insertWithProof(v6, 'v6@example.com', '2001:db8:1:3ff::9')).toBe('stored');
    const { salt } = await challengeAsAnon('192.0.2.7');
    expect(salt).toMatch(/&network=192\.0\.2\.7&$/);
    const expires = Number(/expires=(\d+)/.exec(salt)![1]) * 1000;
    expect(expires - Date.now()).toBeGreaterThan(110_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(120_000);
  });

  it('makes the proof harder as the hour fills past the threshold, up to a bound', async () => {
    await setBookingLimits(app.db, { sitePerHour: 5 });
    const { rows } = await app.db.query<{ base: number }>(
      'select proof_max_number as base from app_private.booking_limits',
    );
    const base = rows[0]!.base;
    const difficultyAfter = async (count: number) => {
      await app.db.exec('delete from public.bookings');
      // As the owner, as a restore inserts: no limit counts these.
      await app.db.query(
        `insert into public.bookings (id, full_name, phone, email)
         select gen_random_uuid(), 'Amina Khan', '07700 900123', 'hour' || n || '@example.com'
         from generate_series(1, $1) as n`,
        [count],
      );
      return (await challengeAsAnon('192.0.2.1')).maxnumber;
    };
    expect(await difficultyAfter(0)).toBe(base);
    const atThreshold = await difficultyAfter(5);
    expect(atThreshold).toBe(base);
    expect(await difficultyAfter(10)).toBe(2 * base);
    const atFourTimes = await difficultyAfter(20);
    expect(atFourTimes).toBeGreaterThan(atThreshold);
    expect(await difficultyAfter(200)).toBe(atFourTimes);
  });

  it('while flooded, counts an IPv6 client per /48 as well as per /56', async () => {
    await flood();
    const answers = [];
    // Twelve /56s of one /48.
    for (let n = 0; n < 12; n += 1) {
      const address = `2001:db8:5:${(n * 0x100).toString(16)}::1`;
      answers.push(await insertWithProof(address, `v48-${n}@example.com`));
    }
    expect(answers.filter((answer) => answer === 'stored')).toHaveLength(defaults.perClientPerHour);
    expect(answers.filter((answer) => answer === 'PT429')).toHaveLength(
      12 - defaults.perClientPerHour,
    );
    expect(await insertWithProof('2001:db8:6::1', 'v48-other@example.com')).toBe('stored');
  });

  it('sends requests above the threshold to the digest, and tells the practice once an hour', async () => {
    await flood();
    for (let i = 2; i <= 4; i += 1) {
      expect(await insertWithProof(`192.0.2.${i}`, `flood${i}@example.com`)).toBe('stored');
    }
    const { rows: digests } = await app.db.query<{ email: string; digest: boolean }>(
      `select b.email, n.in_digest as digest from app_private.messages n
       join public.bookings b on b.id = n.booking_id and n.kind = 'notification' order by b.email`,
    );
    expect(digests).toEqual([
      { email: 'first@example.com', digest: false },
      { email: 'flood2@example.com', digest: true },
      { email: 'flood3@example.com', digest: true },
      { email: 'flood4@example.com', digest: true },
    ]);
    const { rows } = await app.db.query(
      'select kind, details from app_private.messages where booking_id is null',
    );
    expect(rows).toEqual([{ kind: 'flood', details: { threshold: 1 } }]);
  });

  it('counts only the last hour', async () => {
    for (let i = 0; i < defaults.perClientPerHour; i += 1) {
      await from('127.0.0.2', booking(`early${i}@example.com`));
    }
    expect((await from('127.0.0.2', booking('early-more@example.com'))).status).toBe(429);
    await app.db.exec(
      `update public.bookings set created_at = now() - interval '61 minutes';
       update app_private.booking_clients set created_at = now() - interval '61 minutes';`,
    );
    expect((await from('127.0.0.2', booking('early0@example.com'))).status).toBe(201);
  });

  it('lets anon neither read nor change the limits or what they count', async () => {
    const attempt = (sql: string) =>
      queryAsAnonInTransaction(app.db, sql, []).catch((error: unknown) => error);
    for (const sql of [
      'select * from app_private.booking_limits',
      'update app_private.booking_limits set site_per_hour = 0',
      'select * from app_private.booking_clients',
      'delete from app_private.booking_clients',
      'select * from app_private.messages',
      'select * from app_private.booking_proof_key',
      'select * from app_private.booking_proofs_used',
      "select app_private.accept_booking_proof('')",
    ]) {
      expect(((await attempt(sql)) as DatabaseError).code).toBe('42501');
    }
  });

  it('switches a limit off with 0, keeping the others as stored, and puts one whose setting was removed back to its default', async () => {
    await setBookingLimits(app.db, { perEmailPerHour: 0 });
    expect(await readBookingLimits(app.db)).toEqual({ ...defaults, perEmailPerHour: 0 });
    for (let i = 0; i < 4; i += 1) {
      expect((await from('127.0.0.2', booking('many@example.com'))).status).toBe(201);
    }
    await setBookingLimits(app.db, { perClientPerHour: 9, perEmailPerHour: 0, sitePerHour: 0 });
    await setBookingLimits(app.db, { perEmailPerHour: 1 }, { unsetToDefault: true });
    expect(await readBookingLimits(app.db)).toEqual({ ...defaults, perEmailPerHour: 1 });
  });
});

describe("the server's own limits", () => {
  const limits: ApiLimits = { rateLimitPerMinute: 3, trustProxy: [], maxPendingRequests: 100 };
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
  };

  /** Runs `test` against a server with these limits, which nothing else uses. */
  async function withServer(
    overrides: Partial<ApiLimits>,
    test: (
      send: (extra?: Record<string, string>, method?: string) => Promise<Response>,
    ) => Promise<void>,
  ) {
    const server = await serveApp({} as Database, {
      bookings,
      limits: { ...limits, ...overrides },
      // A clock that stands still: no token comes back during a test.
      now: () => 0,
    });
    const send = (extra: Record<string, string> = {}, method = 'POST') =>
      fetch(`${server.baseUrl}/rest/v1/bookings`, {
        method,
        headers: { ...anonJsonHeaders, ...extra },
        body: method === 'POST' ? JSON.stringify(booking(`r${Math.random()}@example.com`)) : null,
      });
    try {
      await test(send);
      // The site is still served.
      expect((await fetch(server.baseUrl)).status).toBe(404);
    } finally {
      release();
      await server.close();
    }
  }

  it('answers the requests of one address over the rate with 429, Retry-After and a PostgREST body', async () => {
    await withServer({}, async (send) => {
      // Preflights do not count.
      for (let i = 0; i < 5; i += 1) expect((await send({}, 'OPTIONS')).status).toBe(200);
      for (let i = 0; i < 3; i += 1) expect((await send()).status).toBe(201);
      const refused = await send();
      expect(refused.headers.get('retry-after')).toBe('20');
      // The same answer as the database's limits give (see above). When the
      // token comes back is the rate limiter's (rate-limiter.test.ts).
      expect(await expectApiError(refused, 429, 'PT429')).toEqual(limited);
    });
  });

  it('sheds requests beyond the pending limit with 503 instead of queueing them, and recovers', async () => {
    await withServer({ rateLimitPerMinute: 0, maxPendingRequests: 2 }, async (send) => {
      blocked = new Promise((resolve) => (release = resolve));
      const waiting = [send(), send()];
      // Both are inside the handler once the database has been asked.
      await expect.poll(() => waitingInserts, { timeout: 5_000 }).toBe(2);
      const shed = await send();
      expect(shed.headers.get('retry-after')).toBe('2');
      await expectApiError(shed, 503, 'PT503');
      release();
      blocked = undefined;
      expect((await Promise.all(waiting)).map((response) => response.status)).toEqual([201, 201]);
      expect((await send()).status).toBe(201);
    });
  });
});
