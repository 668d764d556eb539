import { describe, expect, it } from 'vitest';
import { developmentAnonKey } from '../../supabase/functions/_shared/core/api-defaults.ts';
import { apiBodyTimeoutMs, maxRequestsAtOncePerClient } from '../app.ts';
import { useTestApp } from '../testing/test-database.ts';
import { tooManyRequestsAnswer } from '../http/api-errors.ts';
import { exchangeRaw, parseRawAnswer, postBookingFrom, testEngines } from '../testing/helpers.ts';
import { defaultLimits } from './limits-config.ts';
import { bookingWithId } from '../testing/booking-samples.ts';

/**
 * Requests whose bodies never finish, sent by many connections at once: the
 * flooder's own connections wait for their 408, while a visitor's booking
 * goes through at once. A request counts among those the server handles only
 * once its body is complete, and each client network has a few places of its
 * own for requests still arriving.
 *
 * On the embedded database alone: what is judged happens in the HTTP layer
 * before any query, and the visitor's booking stored at the end is the one
 * every engine's booking tests store. The 408s arrive only when the body
 * timeout has run out, so a second engine would double a wait, not a check.
 */

/** A booking whose headers promise 400 bytes of which only the first few are ever sent. */
async function sendUnfinishedBooking(baseUrl: string, localAddress: string) {
  const head =
    'POST /rest/v1/bookings HTTP/1.1\r\n' +
    `Host: ${new URL(baseUrl).host}\r\n` +
    `apikey: ${developmentAnonKey}\r\n` +
    'Content-Type: application/json\r\n' +
    'Content-Length: 400\r\n\r\n' +
    '{"full_name":"A';
  return parseRawAnswer(await exchangeRaw(baseUrl, head, { localAddress, keepOpen: true }));
}

/** 127.0.0.2 … 127.0.0.21: all of 127.0.0.0/8 is this machine's. */
const flooderAddresses = Array.from({ length: 20 }, (_, index) => `127.0.0.${index + 2}`);
const unfinishedRequests = 300;
const visitorAddress = '127.0.0.50';

describe('bodies that never finish', () => {
  // Two requests handled at once: if those still arriving counted, the visitor would get 503.
  const embedded = testEngines('slow-bodies').find(({ name }) => name === 'PGlite')!;
  const app = useTestApp(embedded, () => ({
    limits: { ...defaultLimits, trustProxy: [], maxPendingRequests: 2 },
  }));

  it(`hold no place a visitor needs: ${unfinishedRequests} from 20 addresses, then a booking gets 201 at once`, async () => {
    const baseUrl = app.baseUrl;
    let refusedSoFar = 0;
    const unfinished = Array.from({ length: unfinishedRequests }, async (_, index) => {
      const answer = await sendUnfinishedBooking(
        baseUrl,
        flooderAddresses[index % flooderAddresses.length]!,
      );
      if (answer.status === 429) refusedSoFar += 1;
      return answer;
    });
    // Each address had its few places; the rest were refused at once, and
    // those admitted are dropped when their time runs out. Once the rest are
    // refused, every place is held by a request still arriving.
    const admitted = flooderAddresses.length * maxRequestsAtOncePerClient;
    await expect.poll(() => refusedSoFar, { timeout: 10_000 }).toBe(unfinishedRequests - admitted);

    const started = Date.now();
    expect((await postBookingFrom(baseUrl, visitorAddress, bookingWithId())).status).toBe(201);
    expect(Date.now() - started).toBeLessThan(5_000);

    const answers = await Promise.all(unfinished);
    const byStatus = (status: number) => answers.filter((answer) => answer.status === status);
    expect(byStatus(429)).toHaveLength(unfinishedRequests - admitted);
    expect(byStatus(408)).toHaveLength(admitted);

    const refused = byStatus(429)[0]!;
    expect(JSON.parse(refused.body)).toEqual({ ...tooManyRequestsAnswer, details: null });
    expect(refused.headers['retry-after']).toBe(String(apiBodyTimeoutMs / 1000));
    const timedOut = byStatus(408)[0]!;
    expect(JSON.parse(timedOut.body)).toMatchObject({ code: 'PGRST000' });
    for (const answer of [refused, timedOut]) {
      expect(answer.headers.connection).toBe('close');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
  }, 20_000);
});
