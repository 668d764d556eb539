import { describe, expect, it } from 'vitest';
import { loadBookings, peakMemoryMiB } from '../scripts/lib/booking-load.ts';
import { queryRunningServer, serverEngines } from './testing/helpers.ts';
import { postBooking } from './testing/booking-samples.ts';
import { useServerRuns } from './testing/server-runs.ts';
import { everyLimitLifted } from './limits/limits-config.ts';

/**
 * A burst far above what the server can answer: it refuses the excess at once
 * (503) instead of queueing it without bound, stays within a memory budget,
 * stores exactly what it answered 201, and answers normally right after.
 */

/**
 * The server's limit on requests handled at once, set low so that the burst is
 * far above it even when the test's own client is slowed by a busy machine
 * (at 16, a clean-clone run beside other work once saw no 503: the client
 * never had more than 16 in the server at once).
 */
const maxPendingRequests = 4;
const connections = 256;
const burst = 1_000;
/** Generous: PGlite's WebAssembly heap alone grows to several hundred MiB under load. */
const memoryBudgetMiB = 1_536;

describe.each(serverEngines())('a burst of bookings far above capacity, on $name', (engine) => {
  const servers = useServerRuns('overload', engine);

  it('sheds the excess with 503, within its memory budget, and recovers by itself', async () => {
    const { run: server, url } = await servers.listen({
      // Only the load shedding is under test: all the load comes from one address.
      ...everyLimitLifted,
      MAX_PENDING_REQUESTS: String(maxPendingRequests),
    });
    const result = await loadBookings(url, { connections, amount: burst, timeout: 30 });
    const statuses = Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => [status, count]),
    );
    expect(Object.keys(statuses).sort()).toEqual(['201', '503']);
    expect(result.errors + result.timeouts).toBe(0);
    expect(server.child.exitCode).toBeNull();
    expect(await peakMemoryMiB(server.child.pid!)).toBeLessThan(memoryBudgetMiB);

    // Right after the burst, a visitor's booking goes through at once.
    const started = Date.now();
    const after = await postBooking(url);
    expect(after.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(2_000);

    // Exactly the bookings answered 201 are stored; the refused ones are not.
    const [stored] = await queryRunningServer<{ count: number }>(
      servers.databaseEnv,
      'select count(*)::integer as count from public.bookings',
    );
    expect(stored?.count).toBe(statuses['201']! + 1);
  }, 180_000);
});
