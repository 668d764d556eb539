import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../testing/test-database.ts';
import { testEngines } from '../testing/helpers.ts';
import { clientNetwork } from './client-network.ts';

/**
 * The rule of what one client is lives twice: in the server's own limits
 * (clientNetwork) and in the database's (app_private.request_client_network,
 * which reads the address the server passes in `cf-connecting-ip`). Both must
 * name every address the same way, or the two would count different clients.
 */

/** Addresses the server may pass on, and some it never should. */
const addresses = [
  '203.0.113.7',
  '127.0.0.1',
  '::ffff:198.51.100.9',
  '::ffff:c633:6409',
  '2001:db8:1:2:3:4:5:6',
  '2001:0db8:0001:0002:0003:0004:0005:0006',
  '2001:db8:1:2::9',
  // Two /64s of one /56, and the neighbouring /56.
  '2001:db8:aa:b00::1',
  '2001:db8:aa:bff:ffff:ffff:ffff:ffff',
  '2001:db8:aa:c00::1',
  '2001:DB8::1',
  '0:0:1:100::',
  '2001:0:0:1ff::1',
  '::1',
  '::',
  'fe80::1%eth0',
  '203.0.113.0/24',
  '2001:db8::/48',
  '1.2.3',
  '1::2::3',
  '[2001:db8::1]',
  '[2001:db8::1]:443',
  '[203.0.113.7]',
  '[fe80::1%eth0]:443',
  '[]',
  '203.0.113.7:443',
  '203.0.113.7:https',
  '2001:db8::1:443',
  'unknown',
  'not an address',
  ' ',
  '',
  undefined,
];

describe.each(testEngines('client-network'))('the client network on $name', (engine) => {
  const opened = useTestDatabase(engine);

  /** What the database counts for a request whose `cf-connecting-ip` is `address`. */
  const networkInSql = (address: string | undefined) =>
    opened.db.transaction(async (tx) => {
      const headers = address === undefined ? {} : { 'cf-connecting-ip': address };
      await tx.query(`select set_config('request.headers', $1, true)`, [JSON.stringify(headers)]);
      const { rows } = await tx.query<{ network: string }>(
        'select app_private.request_client_network() as network',
      );
      return rows[0]!.network;
    });

  it('is the same in TypeScript and in SQL for every address', async () => {
    const inSql: Record<string, string> = {};
    const inTypeScript: Record<string, string> = {};
    for (const address of addresses) {
      const key = JSON.stringify(address ?? null);
      inSql[key] = await networkInSql(address);
      inTypeScript[key] = clientNetwork(address);
    }
    expect(inTypeScript).toEqual(inSql);
    // The list exercises each kind of answer.
    expect(inSql['"2001:db8:aa:b00::1"']).toBe(inSql['"2001:db8:aa:bff:ffff:ffff:ffff:ffff"']);
    expect(inSql['"2001:db8:aa:c00::1"']).not.toBe(inSql['"2001:db8:aa:b00::1"']);
    expect(inSql['"::ffff:198.51.100.9"']).toBe('198.51.100.9');
    expect(inSql['"not an address"']).toBe('unknown');
  });
});
