import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import type { ApiLimits } from '../app.ts';
import { countedNetworks, useTestDatabase } from '../testing/test-database.ts';
import { postBookingFrom, testEngines, serveApp } from '../testing/helpers.ts';
import { bookingWithId } from '../testing/booking-samples.ts';

/**
 * Which client a request counts as, through the real server into the real
 * database: X-Forwarded-For is believed only from a trusted proxy, read from
 * the right, and a client the server cannot tell lands in the one shared
 * bucket, `unknown`.
 */

/** A booking from `localAddress` with the given extra headers; its status. */
async function bookFrom(
  baseUrl: string,
  localAddress: string,
  headers: Record<string, string> = {},
) {
  const booking = bookingWithId({ email: `${randomUUID()}@example.com` });
  return (await postBookingFrom(baseUrl, localAddress, booking, headers)).status;
}

// The limits as a new database has them: it records each request's network.
describe.each(testEngines('trusted-proxy', {}))('the client of a request, on $name', (engine) => {
  const opened = useTestDatabase(engine);
  const warnings: string[] = [];

  const start = async (limits: Partial<ApiLimits>) => {
    const server = await serveApp(opened.db, {
      limits: { rateLimitPerMinute: 30, trustProxy: [], maxPendingRequests: 100, ...limits },
      logWarning: (message) => warnings.push(message),
    });
    onTestFinished(() => server.close());
    return server;
  };
  beforeEach(async () => {
    await opened.db.exec(
      'delete from public.bookings; delete from app_private.booking_clients; delete from app_private.messages;',
    );
    warnings.length = 0;
  });

  it("believes X-Forwarded-For from a trusted proxy alone, counting the network of the address it appended, not the client's own claim", async () => {
    const server = await start({ trustProxy: ['127.0.0.2'] });
    const forwarded = { 'X-Forwarded-For': '192.0.2.1, 2001:db8:1:2::5' };
    expect(await bookFrom(server.baseUrl, '127.0.0.2', forwarded)).toBe(201);
    expect(await bookFrom(server.baseUrl, '127.0.0.3', forwarded)).toBe(201);
    expect(await countedNetworks(opened.db)).toEqual(['2001:db8:1::/56', '127.0.0.3']);
  });

  it('puts clients it cannot tell in one shared bucket, limited like any other, each asked for a proof', async () => {
    const server = await start({ trustProxy: ['loopback'], rateLimitPerMinute: 2 });
    const statuses = [];
    for (const [index, garbage] of ['unknown', '203.0.113.7:https', 'x'].entries()) {
      statuses.push(
        await bookFrom(server.baseUrl, `127.0.0.${10 + index}`, { 'X-Forwarded-For': garbage }),
      );
    }
    expect(statuses).toEqual([428, 428, 429]);
  });

  it('warns once when a proxy on this machine sends X-Forwarded-For while no proxy is trusted', async () => {
    const server = await start({ trustProxy: [] });
    expect(await bookFrom(server.baseUrl, '127.0.0.4')).toBe(201);
    expect(warnings).toEqual([]);
    // The page, usually the first request a proxy passes on.
    await fetch(server.baseUrl, { headers: { 'X-Forwarded-For': '203.0.113.7' } });
    expect(warnings).toHaveLength(1);
    for (const client of ['203.0.113.7', '203.0.113.8']) {
      expect(await bookFrom(server.baseUrl, '127.0.0.4', { 'X-Forwarded-For': client })).toBe(201);
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^Warning: requests from \S+ carry X-Forwarded-For, .* but TRUST_PROXY is unset: .* Set TRUST_PROXY to loopback/,
    );
    // Until then, every visitor is the proxy.
    expect(await countedNetworks(opened.db)).toEqual(['127.0.0.4', '127.0.0.4', '127.0.0.4']);
  });

  it('warns too when the proxy is another than the one trusted (a container host, a load balancer)', async () => {
    const server = await start({ trustProxy: ['127.0.0.2'] });
    expect(await bookFrom(server.baseUrl, '127.0.0.2', { 'X-Forwarded-For': '203.0.113.7' })).toBe(
      201,
    );
    expect(warnings).toEqual([]);
    expect(await bookFrom(server.baseUrl, '127.0.0.5', { 'X-Forwarded-For': '203.0.113.8' })).toBe(
      201,
    );
    expect(warnings).toEqual([
      expect.stringMatching(/^Warning: requests from 127\.0\.0\.5 .* TRUST_PROXY does not list it/),
    ]);
  });
});
