import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { developmentAnonKey } from '../core/api-defaults.ts';
import { serverEngines } from './testing/helpers.ts';
import {
  limitsLifted,
  listeningUrl,
  makeServerWorkDir,
  spawnTypeScript,
  type ChildRun,
} from './testing/processes.ts';

/**
 * A burst far above what the server can answer: it refuses the excess at once
 * (503) instead of queueing it without bound, stays within a memory budget,
 * stores exactly what it answered 201, and answers normally right after.
 */

const entry = fileURLToPath(new URL('./index.ts', import.meta.url));
const serviceKey = 'overload-service-role-key-0123456789ab';
/**
 * The server's limit on requests handled at once, set low so that the burst is
 * far above it even when the test's own client is slowed by a busy machine.
 */
const maxPendingRequests = 16;
const connections = maxPendingRequests * 16;
const burst = 4_000;
/** Generous: PGlite's WebAssembly heap alone grows to several hundred MiB under load. */
const memoryBudgetMiB = 1_536;

const headers = {
  apikey: developmentAnonKey,
  authorization: `Bearer ${developmentAnonKey}`,
  'content-type': 'application/json',
};
const booking = () =>
  JSON.stringify({
    id: randomUUID(),
    full_name: 'Burst Test',
    phone: '07700 900123',
    email: `burst.${randomUUID()}@example.com`,
  });

function peakMemoryMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) / 1024);
}

describe.each(serverEngines())('a burst of bookings far above capacity, on $name', (engine) => {
  let workDir: string;
  let cleanUp: () => Promise<void>;
  let server: ChildRun;
  let url: string;

  beforeAll(async () => {
    let distDir: string;
    ({ workDir, distDir } = makeServerWorkDir('overload'));
    const prepared = await engine.prepare(workDir);
    cleanUp = prepared.cleanUp;
    server = spawnTypeScript(entry, [], {
      cwd: workDir,
      env: {
        ...prepared.env,
        PORT: '0',
        DIST_DIR: distDir,
        SERVICE_ROLE_KEY: serviceKey,
        // Only the load shedding is under test: all the load comes from one address.
        ...limitsLifted,
        MAX_PENDING_REQUESTS: String(maxPendingRequests),
      },
    });
    url = await listeningUrl(server, 60_000);
  }, 90_000);

  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    await cleanUp?.();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('sheds the excess with 503, within its memory budget, and recovers by itself', async () => {
    const result = await autocannon({
      url: `${url}/rest/v1/bookings`,
      method: 'POST',
      connections,
      amount: burst,
      timeout: 30,
      headers,
      setupClient: (client) => {
        client.setBody(booking());
        client.on('response', () => client.setBody(booking()));
      },
    });
    const statuses = Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => [status, count]),
    );
    expect(Object.keys(statuses).sort()).toEqual(['201', '503']);
    expect(result.errors + result.timeouts).toBe(0);
    expect(server.child.exitCode).toBeNull();
    expect(peakMemoryMiB(server.child.pid!)).toBeLessThan(memoryBudgetMiB);

    // Right after the burst, a visitor's booking goes through at once.
    const started = Date.now();
    const after = await fetch(`${url}/rest/v1/bookings`, {
      method: 'POST',
      headers,
      body: booking(),
    });
    expect(after.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(2_000);

    // Exactly the bookings answered 201 are stored; the refused ones are not.
    const stored = await fetch(`${url}/rest/v1/bookings?select=id&limit=1`, {
      headers: { apikey: serviceKey, Authorization: `Bearer ${serviceKey}`, Prefer: 'count=exact' },
    });
    expect(stored.headers.get('content-range')).toMatch(new RegExp(`/${statuses['201']! + 1}$`));
  }, 120_000);
});
