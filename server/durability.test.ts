import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { queryRunningServer, serverEngines } from './testing/helpers.ts';
import { useServerRuns } from './testing/server-runs.ts';
import { postBooking } from './testing/booking-samples.ts';
import { everyLimitLifted } from './limits/limits-config.ts';

/**
 * Bookings keep arriving while the server is killed with SIGKILL, as a crash or
 * an out-of-memory kill would: the next start needs no manual step (the lock
 * left behind must not block it) and finds every booking it answered 201.
 */

/** Clients sending one booking after another, as fast as the server answers. */
const senders = 6;

describe.each(serverEngines())('a server killed mid-stream, on $name', (engine) => {
  const servers = useServerRuns('durability', engine);
  const start = () => servers.listen(everyLimitLifted);

  it('finds every booking answered 201 after a SIGKILL and a plain restart', async () => {
    const first = await start();
    const answered201: string[] = [];
    /** Requests cut off by the kill: they may or may not be stored. */
    let unanswered = 0;
    const otherAnswers: number[] = [];
    let killed = false;
    // Kill once a good number are stored, with requests still in flight.
    let enoughStored!: () => void;
    const storedEnough = new Promise<void>((resolve) => (enoughStored = resolve));

    const send = async (url: string, id: string) =>
      (await postBooking(url, { id, email: `${id}@example.com` })).status;
    const keepSending = async () => {
      while (!killed) {
        const id = randomUUID();
        const status = await send(first.url, id).catch(() => undefined);
        if (status === 201) answered201.push(id);
        else if (status === undefined) unanswered += 1;
        else otherAnswers.push(status);
        if (answered201.length >= 150) enoughStored();
      }
    };

    const streams = Array.from({ length: senders }, keepSending);
    await storedEnough;
    first.run.child.kill('SIGKILL');
    await first.run.exited;
    killed = true;
    await Promise.all(streams);

    expect(otherAnswers).toEqual([]);

    const second = await start();
    const rows = await queryRunningServer<{ id: string }>(
      servers.databaseEnv,
      'select id from public.bookings',
    );
    const stored = new Set(rows.map((row) => row.id));
    const lost = answered201.filter((id) => !stored.has(id));
    expect(lost).toEqual([]);
    // Stored at most: the 201s and the requests cut off mid-way.
    expect(stored.size).toBeLessThanOrEqual(answered201.length + unanswered);
    // The restarted server takes new bookings too.
    expect(await send(second.url, randomUUID())).toBe(201);
  }, 180_000);
});
