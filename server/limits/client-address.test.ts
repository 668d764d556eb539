import { describe, expect, it } from 'vitest';
import { resolveClientAddress } from './client-address.ts';
import { trustedProxies } from './trusted-proxies.ts';

const none = trustedProxies([]);
const loopback = trustedProxies(['loopback']);
const loopbackAndCdn = trustedProxies(['loopback', '198.51.100.0/24', '2001:db8:cd::/48']);

describe('the client address of a request', () => {
  it('is the peer, whatever X-Forwarded-For says, when no proxy is trusted', () => {
    expect(resolveClientAddress('127.0.0.1', '203.0.113.7', none)).toBe('127.0.0.1');
    expect(resolveClientAddress('203.0.113.9', undefined, none)).toBe('203.0.113.9');
  });

  it('is the peer when the peer is not a trusted proxy, even if proxies are trusted', () => {
    expect(resolveClientAddress('203.0.113.9', '192.0.2.1', loopback)).toBe('203.0.113.9');
  });

  it('is the last entry of X-Forwarded-For behind one trusted proxy', () => {
    expect(resolveClientAddress('127.0.0.1', '203.0.113.7', loopback)).toBe('203.0.113.7');
    expect(resolveClientAddress('::1', '2001:db8:1::5', loopback)).toBe('2001:db8:1::5');
    expect(resolveClientAddress('::ffff:127.0.0.1', '203.0.113.7', loopback)).toBe('203.0.113.7');
  });

  it('never reads what the client wrote left of the entries its proxies added', () => {
    // The client sent "X-Forwarded-For: 192.0.2.1" itself; Caddy appended its address.
    expect(resolveClientAddress('127.0.0.1', '192.0.2.1, 203.0.113.7', loopback)).toBe(
      '203.0.113.7',
    );
    expect(resolveClientAddress('127.0.0.1', ['192.0.2.1', '203.0.113.7'], loopback)).toBe(
      '203.0.113.7',
    );
  });

  it('skips every trusted hop, from the right, to the first untrusted one', () => {
    expect(
      resolveClientAddress('127.0.0.1', '192.0.2.1, 203.0.113.7, 198.51.100.4', loopbackAndCdn),
    ).toBe('203.0.113.7');
    expect(
      resolveClientAddress('127.0.0.1', '2001:db8:5::1, 2001:db8:cd:1::9', loopbackAndCdn),
    ).toBe('2001:db8:5::1');
  });

  it('is unknown, never unlimited, when the entry to read is not an address', () => {
    for (const forwardedFor of ['', 'unknown', '203.0.113.7:https', '[unknown]:443', '1.2.3.4, ']) {
      expect(resolveClientAddress('127.0.0.1', forwardedFor, loopback)).toBeUndefined();
    }
    expect(resolveClientAddress('127.0.0.1', 'garbage, 127.0.0.1', loopback)).toBeUndefined();
    expect(resolveClientAddress(undefined, '203.0.113.7', loopback)).toBeUndefined();
  });

  it('is the address an entry names with its port or in brackets', () => {
    expect(resolveClientAddress('127.0.0.1', '198.51.100.7:443', loopback)).toBe('198.51.100.7');
    expect(resolveClientAddress('127.0.0.1', '[2001:db8::4]:443', loopback)).toBe('2001:db8::4');
    expect(resolveClientAddress('127.0.0.1', '[2001:db8::4]', loopback)).toBe('2001:db8::4');
    // A trusted proxy written with its port is still skipped.
    expect(resolveClientAddress('127.0.0.1', '203.0.113.7, 127.0.0.1:8080', loopback)).toBe(
      '203.0.113.7',
    );
  });

  it('is the farthest proxy when every hop is trusted, or the peer without the header', () => {
    expect(resolveClientAddress('127.0.0.1', '198.51.100.4', loopbackAndCdn)).toBe('198.51.100.4');
    expect(resolveClientAddress('127.0.0.1', undefined, loopback)).toBe('127.0.0.1');
  });
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
