import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compares a secret as sent with the one expected in constant time: both are
 * hashed to the same length first, so neither the time taken nor a length
 * check tells a caller how much of a key it has right.
 */
export function sameSecret(candidate: string, secret: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(candidate), digest(secret));
}
