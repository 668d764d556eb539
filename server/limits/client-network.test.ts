import { describe, expect, it } from 'vitest';
import { clientNetwork } from './client-network.ts';

describe('clientNetwork', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:127.0.0.2', '127.0.0.2'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['unknown', 'unknown'],
  ])('counts %s as %s', (address, network) => {
    expect(clientNetwork(address)).toBe(network);
  });

  it('counts every address of one /64 as one client, and another /64 apart', () => {
    expect(clientNetwork('2001:db8:a:b::1')).toBe(
      clientNetwork('2001:db8:a:b:ffff:ffff:ffff:ffff'),
    );
    expect(clientNetwork('2001:db8:a:b::1')).not.toBe(clientNetwork('2001:db8:a:c::1'));
  });
});
