import { isIP } from 'node:net';
import { addressNamed } from './client-network.ts';
import type { trustedProxies } from './trusted-proxies.ts';

/**
 * The address of the client a request comes from, as far as the server can
 * trust it, or undefined when it cannot tell (the limits then count it with
 * every other unknown client, in one shared bucket: limited, never unlimited).
 *
 * A trusted proxy appends the address it received the request from to
 * X-Forwarded-For, so the header is read from the right: each entry added by
 * a trusted proxy is skipped, and the first that is not a trusted proxy is
 * the client. Entries further left were written by the client itself and are
 * never read. Without a trusted peer the header is ignored altogether. An
 * entry with a port or in brackets (`198.51.100.7:443`, `[2001:db8::4]:443`)
 * is the address it names.
 */
export function resolveClientAddress(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  proxies: ReturnType<typeof trustedProxies>,
): string | undefined {
  if (peer === undefined || isIP(peer) === 0) return undefined;
  if (!proxies.has(peer)) return peer;
  let nearest = peer;
  const hops = forwardedHops(forwardedFor);
  for (let index = hops.length - 1; index >= 0; index -= 1) {
    const hop = hops[index]!;
    // Not an address: some proxy or client wrote something else. Better
    // unknown, which is limited, than a guess.
    if (isIP(hop) === 0) return undefined;
    nearest = hop;
    if (!proxies.has(hop)) return hop;
  }
  // Every hop is a trusted proxy: the farthest one is the client.
  return nearest;
}

/** The entries of X-Forwarded-For, left to right, every occurrence of the header joined. */
function forwardedHops(forwardedFor: string | string[] | undefined): string[] {
  if (forwardedFor === undefined) return [];
  return [forwardedFor].flat().join(',').split(',').map(addressNamed);
}
