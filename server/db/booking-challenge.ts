import type { BookingChallenge } from '../../core/booking-proof.ts';
import type { Database } from './database.ts';

/**
 * The proof-of-work challenges a browser solves while the site is flooded
 * (ALTCHA v1): public.booking_challenge() of the migration
 * 20261126000000_booking_flood.sql makes and signs them with a key no API
 * role can read, so this layer only calls it, as the caller's role, the way
 * PostgREST runs a function.
 */

/** Issues one new challenge, run as `role` so that the function's grants decide. */
export type IssueBookingChallenge = (role: 'anon' | 'service_role') => Promise<BookingChallenge>;

export type { BookingChallenge };

export function createBookingChallengeIssuer(db: Database): IssueBookingChallenge {
  return (role) =>
    db.transaction(async (tx) => {
      // The role is one of two fixed names, never the caller's text.
      await tx.query(`set local role ${role === 'service_role' ? 'service_role' : 'anon'}`);
      // As text, so that both drivers hand back the same string to parse.
      const { rows } = await tx.query<{ challenge: string }>(
        'select public.booking_challenge()::text as challenge',
      );
      const text = rows[0]?.challenge;
      if (text === undefined) throw new Error('public.booking_challenge() returned no row.');
      return JSON.parse(text) as BookingChallenge;
    });
}
