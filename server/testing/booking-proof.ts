import { createHash, createHmac } from 'node:crypto';
import type { BookingChallenge } from '../../supabase/functions/_shared/core/booking-proof.ts';

export type { BookingChallenge };

/**
 * A flooder's side of the proof of work (ALTCHA v1, checked by
 * app_private.accept_booking_proof): solving a challenge with Node's native
 * SHA-256, far faster than a browser (supabase/functions/_shared/core/booking-proof.ts writes the header).
 * For tests and benchmarks only.
 */

/** The secret number behind a challenge, found by trying each in turn. */
export function solveBookingChallenge(challenge: BookingChallenge): number {
  for (let number = 0; number <= challenge.maxnumber; number += 1) {
    const hash = createHash('sha256').update(`${challenge.salt}${number}`).digest('hex');
    if (hash === challenge.challenge) return number;
  }
  throw new Error('The challenge has no solution up to its maxnumber.');
}

/**
 * A challenge signed with `key`, expiring at `expiresAt`, for the client
 * network `network`, as the database makes them: for tests of proofs signed
 * with another key, expired, living too long or solved for another network.
 */
export function signedChallenge(
  key: Buffer,
  expiresAt: Date,
  network: string,
  number = 42,
): BookingChallenge {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  const salt = `0123456789abcdef01234567?expires=${expires}&network=${network}&`;
  const challenge = createHash('sha256').update(`${salt}${number}`).digest('hex');
  const signature = createHmac('sha256', key).update(challenge).digest('hex');
  return { algorithm: 'SHA-256', challenge, maxnumber: 1000, salt, signature };
}
