import { describe, expect, it } from 'vitest';
import { clientNetwork } from './client-network.ts';

describe('clientNetwork', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:127.0.0.2', '127.0.0.2'],
    ['::FFFF:7f00:2', '127.0.0.2'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1::/56'],
    ['2001:db8:1:2ff::9', '2001:db8:1:200::/56'],
    // Every /64 of one /56 is one network; the neighbouring /56 is another.
    ['2001:db8:a:b00::1', '2001:db8:a:b00::/56'],
    ['2001:db8:a:bff:ffff::1', '2001:db8:a:b00::/56'],
    ['2001:db8:a:c00::1', '2001:db8:a:c00::/56'],
    ['2001:0db8:0001:0002:ffff::1', '2001:db8:1::/56'],
    ['2001:db8::1', '2001:db8::/56'],
    ['0:0:1:100::', '0:0:1:100::/56'],
    ['::1', '::/56'],
    ['fe80::1%eth0', 'unknown'],
    ['203.0.113.0/24', 'unknown'],
    ['unknown', 'unknown'],
    ['', 'unknown'],
    [undefined, 'unknown'],
  ])('counts %s as %s', (address, network) => {
    expect(clientNetwork(address)).toBe(network);
  });
});
