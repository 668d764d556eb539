import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../supabase/functions/_shared/config.ts';
import { defaultLimits, loadLimits } from './limits-config.ts';

describe('the limits read from the environment', () => {
  it('leaves the database limits as stored and limits each address by default', () => {
    expect(loadLimits({})).toEqual({
      bookingLimits: {},
      rateLimitPerMinute: defaultLimits.rateLimitPerMinute,
      trustProxy: [],
      maxPendingRequests: defaultLimits.maxPendingRequests,
    });
  });

  it('reads every variable; 0 switches a limit off', () => {
    expect(
      loadLimits({
        BOOKING_LIMIT_PER_CLIENT_PER_HOUR: '8',
        BOOKING_LIMIT_PER_EMAIL_PER_HOUR: '5',
        BOOKING_LIMIT_SITE_PER_HOUR: '0',
        RATE_LIMIT_PER_MINUTE: '0',
        TRUST_PROXY: 'loopback, 10.0.0.0/8',
        MAX_PENDING_REQUESTS: '64',
      }),
    ).toEqual({
      bookingLimits: { perClientPerHour: 8, perEmailPerHour: 5, sitePerHour: 0 },
      rateLimitPerMinute: 0,
      trustProxy: ['loopback', '10.0.0.0/8'],
      maxPendingRequests: 64,
    });
  });

  it('reports every malformed value at once', () => {
    const attempt = () =>
      loadLimits({
        BOOKING_LIMIT_PER_EMAIL_PER_HOUR: 'three',
        RATE_LIMIT_PER_MINUTE: '-1',
        TRUST_PROXY: 'yes please',
        MAX_PENDING_REQUESTS: '0',
      });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(
      expect.objectContaining({
        problems: [
          expect.stringContaining('BOOKING_LIMIT_PER_EMAIL_PER_HOUR'),
          ...Array(3).fill(expect.any(String)),
        ],
      }),
    );
  });

  it.each(['true', '1', 'TRUE'])(
    'refuses TRUST_PROXY=%s, which trusted anyone, and gives the form that names the proxy',
    (value) => {
      expect(() => loadLimits({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY=loopback/);
    },
  );

  it.each(['0.0.0.0/0', '::/0', '::ffff:0:0/96', '10.0.0.0/7', '2001::/27', '::ffff:128.0.0.0/97'])(
    'refuses TRUST_PROXY=%s, which trusts everyone',
    (range) => {
      expect(() => loadLimits({ TRUST_PROXY: `loopback,${range}` })).toThrow(
        `TRUST_PROXY: "${range}" trusts everyone: any client in it could choose its own address. ` +
          'List your proxies themselves: ranges of at least /8 for IPv4 and /28 for IPv6, or loopback.',
      );
    },
  );

  // Cloudflare's widest published range among them.
  it.each([
    '10.0.0.0/8',
    '2001:db8::/32',
    '2a06:98c0::/29',
    '::ffff:10.0.0.0/104',
    '::ffff:192.0.2.10',
  ])('takes TRUST_PROXY=%s, a range of proxies', (range) => {
    expect(loadLimits({ TRUST_PROXY: range }).trustProxy).toEqual([range]);
  });

  it('reads TRUST_PROXY as a list of addresses and ranges, and false or nothing as none', () => {
    expect(loadLimits({ TRUST_PROXY: ' 192.0.2.10 ,2001:db8::/48,LOOPBACK' }).trustProxy).toEqual([
      '192.0.2.10',
      '2001:db8::/48',
      'LOOPBACK',
    ]);
    for (const none of ['', ' ', 'false', '0']) {
      expect(loadLimits({ TRUST_PROXY: none }).trustProxy).toEqual([]);
    }
  });

  it('refuses every TRUST_PROXY entry that is not an address or a range, naming each', () => {
    expect(() =>
      loadLimits({ TRUST_PROXY: 'loopback, caddy, 10.0.0.0/33, 192.0.2.1/8/2, ' }),
    ).toThrow(
      expect.objectContaining({
        problems: ['caddy', '10.0.0.0/33', '192.0.2.1/8/2', ''].map(
          (entry) =>
            `TRUST_PROXY: "${entry}" is not an IP address, a CIDR range (e.g. 10.0.0.0/8) or loopback.`,
        ),
      }),
    );
  });
});
