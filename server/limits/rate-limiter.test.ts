import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limiter.ts';

describe('the per-address rate limiter', () => {
  it('allows a burst of perMinute requests, then refuses with the wait for the next one', () => {
    const limiter = createRateLimiter({ perMinute: 3 });
    const now = 1_000_000;
    expect([1, 2, 3].map(() => limiter.take('203.0.113.9', now).allowed)).toEqual([
      true,
      true,
      true,
    ]);
    expect(limiter.take('203.0.113.9', now)).toEqual({ allowed: false, retryAfterSeconds: 20 });
    expect(limiter.take('203.0.113.9', now + 5_000)).toEqual({
      allowed: false,
      retryAfterSeconds: 15,
    });
    expect(limiter.take('203.0.113.9', now + 20_000).allowed).toBe(true);
    expect(limiter.take('203.0.113.9', now + 20_000).allowed).toBe(false);
  });

  it('keeps one bucket per address', () => {
    const limiter = createRateLimiter({ perMinute: 1 });
    expect(limiter.take('198.51.100.1', 0).allowed).toBe(true);
    expect(limiter.take('198.51.100.1', 0).allowed).toBe(false);
    expect(limiter.take('198.51.100.2', 0).allowed).toBe(true);
  });

  it('refills to the full burst and no further after a quiet hour', () => {
    const limiter = createRateLimiter({ perMinute: 2 });
    limiter.take('a', 0);
    limiter.take('a', 0);
    const later = 3_600_000;
    expect([1, 2, 3].map(() => limiter.take('a', later).allowed)).toEqual([true, true, false]);
  });

  it('remembers at most maxClients addresses, forgetting the least recently seen', () => {
    const limiter = createRateLimiter({ perMinute: 1, maxClients: 100 });
    for (let i = 0; i < 10_000; i += 1) limiter.take(`10.0.${i >> 8}.${i & 255}`, i);
    expect(limiter.size).toBe(100);
    // The most recent address is still limited; the first one was forgotten.
    expect(limiter.take('10.0.39.15', 10_000).allowed).toBe(false);
    expect(limiter.take('10.0.0.0', 10_000).allowed).toBe(true);
  });
});
