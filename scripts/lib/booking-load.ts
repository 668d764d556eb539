import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import autocannon from 'autocannon';
import { bookingBody } from '../../server/testing/booking-samples.ts';
import { anonJsonHeaders } from '../../server/testing/helpers.ts';

/**
 * Load on `POST /rest/v1/bookings` as browsers send it, for the API benchmark
 * and the overload test: every request a valid booking with an id and e-mail
 * address of its own (a repeated id would be a retry, answered 409).
 */

const newBooking = () =>
  bookingBody({ id: randomUUID(), email: `load.${randomUUID()}@example.com` });

/** Sends bookings for `duration` seconds or `amount` requests, over `connections` connections. */
export function loadBookings(
  baseUrl: string,
  options: { connections: number; duration?: number; amount?: number; timeout?: number },
): Promise<autocannon.Result> {
  return autocannon({
    url: `${baseUrl}/rest/v1/bookings`,
    method: 'POST',
    headers: anonJsonHeaders,
    ...options,
    setupClient: (client) => {
      client.setBody(newBooking());
      client.on('response', () => client.setBody(newBooking()));
    },
  });
}

/** A process's peak resident memory so far, from the kernel's own count. */
export async function peakMemoryMiB(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kib = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  return kib ? Math.round(Number(kib) / 1024) : undefined;
}
