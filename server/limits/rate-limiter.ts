/**
 * A token bucket per client (a network, see client-network.ts): `perMinute`
 * requests at once, then one more every 60/perMinute seconds. Pure (the clock
 * is passed in), and bounded: past `maxClients` clients the least recently
 * seen is forgotten, which can only ever give that client a fresh bucket.
 */

type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export function createRateLimiter(options: { perMinute: number; maxClients?: number }) {
  const capacity = options.perMinute;
  const refillPerMs = capacity / 60_000;
  const maxClients = options.maxClients ?? 10_000;
  const buckets = new Map<string, { tokens: number; updatedMs: number }>();

  return {
    take(client: string, nowMs: number): RateDecision {
      const bucket = buckets.get(client) ?? { tokens: capacity, updatedMs: nowMs };
      const elapsed = Math.max(0, nowMs - bucket.updatedMs);
      bucket.tokens = Math.min(capacity, bucket.tokens + elapsed * refillPerMs);
      bucket.updatedMs = nowMs;
      // Re-inserted so that the Map's order is least recently seen first.
      buckets.delete(client);
      buckets.set(client, bucket);
      if (buckets.size > maxClients) {
        const oldest = buckets.keys().next().value;
        if (oldest !== undefined) buckets.delete(oldest);
      }
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { allowed: true };
      }
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerMs / 1000)),
      };
    },
    /** Clients currently remembered, for tests of the memory bound. */
    get size() {
      return buckets.size;
    },
  };
}
