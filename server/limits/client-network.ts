import { isIPv4, isIPv6 } from 'node:net';

/** The one network of every client whose address is missing or unreadable. */
const unknownNetwork = 'unknown';

/**
 * The network a per-client limit counts: an IPv4 address alone, the /56 of an
 * IPv6 address (what a UK home connection is given, so counting single
 * addresses, or even /64s, would give one subscriber an endless supply), an
 * IPv4 address seen through an IPv6 socket as that IPv4 address, an address
 * with its port or in brackets as the address it names, and anything else as
 * `unknown`: one shared bucket, limited, never unlimited.
 *
 * The database counts the same way, in the same text
 * (app_private.request_client_network); client-network-sql.test.ts runs both
 * over one list of addresses so that the two cannot drift apart.
 */
export function clientNetwork(address: string | undefined): string {
  const text = addressNamed(address ?? '');
  if (isIPv4(text)) return text;
  // A zone (fe80::1%eth0) is the receiver's, not part of the address: PostgreSQL refuses it.
  if (!isIPv6(text) || text.includes('%')) return unknownNetwork;
  const groups = ipv6Groups(text);
  if (isIPv4Mapped(groups)) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return networkText56(groups);
}

/**
 * The address that `text` names, without the brackets or the port that some
 * proxies and gateways write: `[2001:db8::4]`, `[2001:db8::4]:443` and
 * `198.51.100.7:443` name 2001:db8::4 and 198.51.100.7. Anything else is
 * returned trimmed, for the caller to judge.
 */
export function addressNamed(text: string): string {
  const trimmed = text.trim();
  const bracketed = /^\[([^\]]*)\](?::\d{1,5})?$/.exec(trimmed);
  if (bracketed) return bracketed[1]!;
  const withPort = /^([\d.]+):\d{1,5}$/.exec(trimmed);
  return withPort ? withPort[1]! : trimmed;
}

/** The eight 16-bit groups of an address that `isIPv6` accepts. */
function ipv6Groups(address: string): number[] {
  // A dotted IPv4 tail (::ffff:192.0.2.1) is the last two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  let text = address;
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${address.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const [head = '', tail] = text.split('::');
  if (tail === undefined) return parse(head);
  const headGroups = parse(head);
  const tailGroups = parse(tail);
  const zeros = Array<number>(8 - headGroups.length - tailGroups.length).fill(0);
  return [...headGroups, ...zeros, ...tailGroups];
}

/** ::ffff:0:0/96, an IPv4 client of an IPv6 socket. */
function isIPv4Mapped(groups: number[]): boolean {
  return groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
}

/**
 * The /56 as PostgreSQL writes a cidr of that length: its first four groups
 * (the last one cut to its high byte), hexadecimal without leading zeros,
 * trailing zero groups dropped, then `::/56`.
 */
function networkText56(groups: number[]): string {
  const kept = [groups[0] ?? 0, groups[1] ?? 0, groups[2] ?? 0, (groups[3] ?? 0) & 0xff00];
  while (kept.length > 0 && kept.at(-1) === 0) kept.pop();
  return `${kept.map((group) => group.toString(16)).join(':')}::/56`;
}
