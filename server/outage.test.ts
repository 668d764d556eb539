import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRunningServer, serverEngines } from './testing/helpers.ts';
import type { ChildRun } from './testing/processes.ts';
import { useServerRuns } from './testing/server-runs.ts';
import { postBooking } from './testing/booking-samples.ts';
import { everyLimitLifted } from './limits/limits-config.ts';
import { startDatabaseRelay, type DatabaseRelay } from './testing/tcp-proxy.ts';
import { refusedSetupExitStatus } from './db/private-data-dir.ts';

/**
 * PostgreSQL stopping under a running server: the API answers 503 in
 * PostgREST's shape instead of hanging or crashing, and stores bookings again
 * once the database is back, without a restart. The server reaches the
 * database through a proxy that the test cuts and restores.
 */

/** Below the pool's 5 s connection timeout: a lost database must be noticed, not waited for. */
const outageAnswerMs = 4_000;

const postgres = serverEngines().find((engine) => engine.name === 'PostgreSQL');

describe.runIf(postgres)('a DATABASE_URL that PostgreSQL refuses', () => {
  const servers = useServerRuns('refused', postgres);

  it('stops the server with a plain message and the exit status systemd does not restart on', async () => {
    const wrongName = new URL(servers.databaseEnv.DATABASE_URL!);
    wrongName.pathname = '/no_such_database';
    const server = servers.start({ DATABASE_URL: wrongName.href });
    expect(await server.exited).toBe(refusedSetupExitStatus);
    expect(server.stderr()).toMatch(
      /^DATABASE_URL: PostgreSQL at .* refused the connection: database "no_such_database" does not exist \(3D000\)\. Check the database name, the user and the password in DATABASE_URL\.\n$/,
    );
  });
});

describe.runIf(postgres)('the server while PostgreSQL stops answering', () => {
  const servers = useServerRuns('outage', postgres);
  let proxy: DatabaseRelay;
  let server: ChildRun;
  let baseUrl: string;
  /** The status each booking request was answered with, by its e-mail address. */
  const answered = new Map<string, number>();

  beforeAll(async () => {
    proxy = await startDatabaseRelay(servers.databaseEnv.DATABASE_URL!);
    ({ run: server, url: baseUrl } = await servers.listen({
      HOST: '127.0.0.1',
      DATABASE_URL: proxy.url,
      // Many requests in a few seconds from one address: no limit may answer 429 instead.
      ...everyLimitLifted,
    }));
  }, 45_000);

  afterAll(async () => {
    await proxy?.close();
  });

  let requestCount = 0;

  /** Posts a booking request with an e-mail address of its own and records its answer. */
  async function book() {
    requestCount += 1;
    const email = `guest${requestCount}@example.com`;
    const startedAt = performance.now();
    // A hang must fail this test rather than the test runner's timeout.
    const response = await postBooking(baseUrl, { email }, { signal: AbortSignal.timeout(10_000) });
    const text = await response.text();
    const elapsedMs = performance.now() - startedAt;
    answered.set(email, response.status);
    return {
      status: response.status,
      body: text === '' ? undefined : (JSON.parse(text) as unknown),
      elapsedMs,
    };
  }

  const serverIsRunning = () => server.child.exitCode === null && server.child.signalCode === null;

  it('stores a booking while the database answers', async () => {
    const answer = await book();
    expect(answer.status, server.stderr()).toBe(201);
  }, 15_000);

  it('answers 503 in PostgREST shape, quickly, while the database is down', async () => {
    proxy.down();
    // The first request may meet a pooled connection cut by the outage; the
    // second needs a new connection, which is reset.
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      const answer = await book();
      const context = `attempt ${attempt}: ${JSON.stringify(answer)}\n${server.stderr()}`;
      // PostgREST's code for a database it cannot reach; the rest of that
      // answer (its headers and body) is app.test.ts's.
      expect([answer.status, answer.body], context).toEqual([
        503,
        expect.objectContaining({ code: 'PGRST000' }),
      ]);
      expect(answer.elapsedMs, context).toBeLessThan(outageAnswerMs);
    }
    expect(serverIsRunning(), server.stderr()).toBe(true);
  }, 25_000);

  it('stores bookings again once the database is back, without a restart', async () => {
    proxy.up();
    // The pool dropped the connections the outage cut, so the very next
    // request opens a new one: no wait, no retry.
    const answer = await book();
    expect(answer.status, `${JSON.stringify(answer)}\n${server.stderr()}`).toBe(201);
    expect(serverIsRunning()).toBe(true);
  }, 15_000);

  it('has stored exactly the bookings answered 201', async () => {
    // Straight to PostgreSQL, not through the proxy or the API.
    const rows = await queryRunningServer<{ email: string }>(
      servers.databaseEnv,
      'select email from public.bookings',
    );
    const stored = rows.map((row) => row.email);
    const withStatus = (status: number) =>
      [...answered].filter(([, answer]) => answer === status).map(([email]) => email);
    // Both sides sorted alike; the database's collation may order them otherwise.
    expect(stored.sort()).toEqual(withStatus(201).sort());
    // The requests answered 503 left nothing behind (and there were some).
    expect(withStatus(503).length).toBeGreaterThanOrEqual(2);
  }, 10_000);

  it('exits with 0 on SIGTERM', async () => {
    server.child.kill('SIGTERM');
    expect(await server.exited, server.stderr()).toBe(0);
  }, 15_000);
});
