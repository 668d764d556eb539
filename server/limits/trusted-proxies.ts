import { BlockList, isIP } from 'node:net';

/**
 * The reverse proxies whose X-Forwarded-For the server believes (TRUST_PROXY):
 * addresses and CIDR ranges, and `loopback` for a proxy on the same machine.
 * Anyone else's X-Forwarded-For is the client's own writing, so it is ignored.
 */

/** The shorthand for a proxy on this machine: 127.0.0.0/8 and ::1. */
const loopbackEntry = 'loopback';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Whether `address` is this machine's own (an IPv4 address seen through IPv6 included). */
function isLoopback(address: string | undefined): boolean {
  return address !== undefined && matches(loopback, address);
}

/**
 * Where a reverse proxy in front of the server connects from: this machine,
 * a private network (a container's host, another machine of the same
 * network), carrier-grade NAT, unique-local or link-local IPv6.
 */
const proxyNetworks = new BlockList();
proxyNetworks.addSubnet('10.0.0.0', 8, 'ipv4');
proxyNetworks.addSubnet('172.16.0.0', 12, 'ipv4');
proxyNetworks.addSubnet('192.168.0.0', 16, 'ipv4');
proxyNetworks.addSubnet('100.64.0.0', 10, 'ipv4');
proxyNetworks.addSubnet('fc00::', 7, 'ipv6');
proxyNetworks.addSubnet('fe80::', 10, 'ipv6');

/** Whether a connection from `address` may well be a proxy's: this machine's, or a private network's. */
export function mayBeProxy(address: string | undefined): boolean {
  return address !== undefined && (isLoopback(address) || matches(proxyNetworks, address));
}

interface ProxyRange {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** One entry of TRUST_PROXY as a range (an address alone is a range of one), or undefined. */
function parseEntry(entry: string): ProxyRange | 'loopback' | undefined {
  if (entry.toLowerCase() === loopbackEntry) return 'loopback';
  const [address = '', prefixText, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0 || address.includes('%')) return undefined;
  const bits = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return undefined;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/**
 * A range wider than a /8 (IPv4) or a /28 (IPv6) is no set of proxies but a
 * good part of the internet: 0.0.0.0/0, ::/0, or ::ffff:0:0/96, every IPv4
 * client as the server may see it (an IPv4-mapped IPv6 address).
 */
function trustsEveryone({ address, prefix, family }: ProxyRange): boolean {
  if (family === 'ipv4') return prefix < 8;
  // Not 32: Cloudflare publishes 2a06:98c0::/29 among the ranges to trust.
  if (prefix < 28) return true;
  // A range of IPv4-mapped addresses is judged as the IPv4 range it holds.
  const mappedIpv4 = new BlockList();
  mappedIpv4.addSubnet('::ffff:0:0', 96, 'ipv6');
  const range = new BlockList();
  range.addSubnet(address, prefix, 'ipv6');
  const holdsMapped = mappedIpv4.check(address, 'ipv6') || range.check('::ffff:0:0', 'ipv6');
  return holdsMapped && prefix < 96 + 8;
}

/** The settings of earlier releases that trusted any proxy, whatever its address. */
const trustAnyProxy = ['true', '1'];
/** The settings of earlier releases that trusted none, still meaning the same. */
const trustNoProxy = ['false', '0'];

/**
 * Reads TRUST_PROXY: entries separated by commas; unset, empty or `false`
 * trusts no proxy. `true` is refused rather than guessed at: it used to trust
 * whatever connected, which let anyone who reaches the port choose their own
 * address.
 */
export function readTrustProxySetting(setting: string | undefined): {
  entries: string[];
  problems: string[];
} {
  const text = setting?.trim() ?? '';
  if (text === '' || trustNoProxy.includes(text.toLowerCase())) {
    return { entries: [], problems: [] };
  }
  if (trustAnyProxy.includes(text.toLowerCase())) {
    return {
      entries: [],
      problems: [
        `TRUST_PROXY no longer takes "${text}": it lists the proxies to trust, by address or CIDR range. ` +
          'For Caddy on the same machine (deploy/Caddyfile), set TRUST_PROXY=loopback.',
      ],
    };
  }
  const entries = text.split(',').map((entry) => entry.trim());
  const problems = entries.flatMap((entry) => {
    const range = parseEntry(entry);
    if (range === undefined) {
      return [
        `TRUST_PROXY: "${entry}" is not an IP address, a CIDR range (e.g. 10.0.0.0/8) or loopback.`,
      ];
    }
    if (range !== 'loopback' && trustsEveryone(range)) {
      return [
        `TRUST_PROXY: "${entry}" trusts everyone: any client in it could choose its own address. ` +
          'List your proxies themselves: ranges of at least /8 for IPv4 and /28 for IPv6, or loopback.',
      ];
    }
    return [];
  });
  return { entries: problems.length > 0 ? [] : entries, problems };
}

/** The proxies `entries` name (as TRUST_PROXY gives them); an entry that is no range is a bug. */
export function trustedProxies(entries: readonly string[]) {
  const list = new BlockList();
  let trustsLoopback = false;
  for (const entry of entries) {
    const range = parseEntry(entry.trim());
    if (range === undefined) throw new Error(`Not a proxy address or range: ${entry}`);
    if (range === 'loopback') trustsLoopback = true;
    else list.addSubnet(range.address, range.prefix, range.family);
  }
  return {
    /** Whether a connection from `address` comes from a trusted proxy. */
    has: (address: string) => (trustsLoopback && isLoopback(address)) || matches(list, address),
    /** No proxy is trusted: every client is the address it connects from. */
    none: entries.length === 0,
  };
}

function matches(list: BlockList, address: string): boolean {
  // A zone (fe80::1%eth0) says which interface, not which machine.
  const [bare = ''] = address.split('%');
  const version = isIP(bare);
  if (version === 0) return false;
  return list.check(bare, version === 4 ? 'ipv4' : 'ipv6');
}
