import { describe, expect, it } from 'vitest';
import { resolveClientAddress } from './client-address.ts';
import { trustedProxies } from './trusted-proxies.ts';

const proxies = {
  none: trustedProxies([]),
  loopback: trustedProxies(['loopback']),
  'loopback and a CDN': trustedProxies(['loopback', '198.51.100.0/24', '2001:db8:cd::/48']),
};
const loopback = proxies.loopback;

type Case = [string | undefined, string | string[] | undefined, keyof typeof proxies, string?];

describe('the client address of a request', () => {
  it.each<Case>([
    // No proxy trusted: the peer, whatever X-Forwarded-For says.
    ['127.0.0.1', '203.0.113.7', 'none', '127.0.0.1'],
    ['203.0.113.9', undefined, 'none', '203.0.113.9'],
    // A peer that is not a trusted proxy, even if proxies are trusted.
    ['203.0.113.9', '192.0.2.1', 'loopback', '203.0.113.9'],
    // Behind one trusted proxy: the last entry.
    ['127.0.0.1', '203.0.113.7', 'loopback', '203.0.113.7'],
    ['::1', '2001:db8:1::5', 'loopback', '2001:db8:1::5'],
    ['::ffff:127.0.0.1', '203.0.113.7', 'loopback', '203.0.113.7'],
    // Never what the client wrote left of the entries its proxies added (here
    // the client sent "X-Forwarded-For: 192.0.2.1" itself; Caddy appended its address).
    ['127.0.0.1', '192.0.2.1, 203.0.113.7', 'loopback', '203.0.113.7'],
    ['127.0.0.1', ['192.0.2.1', '203.0.113.7'], 'loopback', '203.0.113.7'],
    // Every trusted hop skipped, from the right, to the first untrusted one.
    ['127.0.0.1', '192.0.2.1, 203.0.113.7, 198.51.100.4', 'loopback and a CDN', '203.0.113.7'],
    ['127.0.0.1', '2001:db8:5::1, 2001:db8:cd:1::9', 'loopback and a CDN', '2001:db8:5::1'],
    // Unknown, never unlimited, when the entry to read is not an address.
    ...['', 'unknown', '203.0.113.7:https', '[unknown]:443', '1.2.3.4, '].map(
      (forwardedFor): Case => ['127.0.0.1', forwardedFor, 'loopback', undefined],
    ),
    ['127.0.0.1', 'garbage, 127.0.0.1', 'loopback', undefined],
    [undefined, '203.0.113.7', 'loopback', undefined],
    // The address an entry names with its port or in brackets; a trusted
    // proxy written with its port is still skipped.
    ['127.0.0.1', '198.51.100.7:443', 'loopback', '198.51.100.7'],
    ['127.0.0.1', '[2001:db8::4]:443', 'loopback', '2001:db8::4'],
    ['127.0.0.1', '[2001:db8::4]', 'loopback', '2001:db8::4'],
    ['127.0.0.1', '203.0.113.7, 127.0.0.1:8080', 'loopback', '203.0.113.7'],
    // The farthest proxy when every hop is trusted, or the peer without the header.
    ['127.0.0.1', '198.51.100.4', 'loopback and a CDN', '198.51.100.4'],
    ['127.0.0.1', undefined, 'loopback', '127.0.0.1'],
  ])(
    'from %s with X-Forwarded-For %j, trusting %s, is %s',
    (peer, forwardedFor, trusted, expected) => {
      expect(resolveClientAddress(peer, forwardedFor, proxies[trusted])).toBe(expected);
    },
  );
});

describe('the trusted proxies', () => {
  it('take loopback as 127.0.0.0/8 and ::1, an IPv4 client of an IPv6 socket included', () => {
    for (const address of ['127.0.0.1', '127.9.8.7', '::1', '::ffff:127.0.0.1']) {
      expect(loopback.has(address)).toBe(true);
    }
    for (const address of ['128.0.0.1', '::2', '10.0.0.1', 'localhost']) {
      expect(loopback.has(address)).toBe(false);
    }
  });

  it('take addresses and CIDR ranges of either family', () => {
    const proxies = trustedProxies(['192.0.2.10', '2001:db8:cd::/48']);
    expect(proxies.has('192.0.2.10')).toBe(true);
    expect(proxies.has('192.0.2.11')).toBe(false);
    expect(proxies.has('2001:db8:cd:ffff::1')).toBe(true);
    expect(proxies.has('2001:db8:ce::1')).toBe(false);
    expect(proxies.has('127.0.0.1')).toBe(false);
  });
});
