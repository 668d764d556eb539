/**
 * The proof of work a booking needs while the site is flooded (ALTCHA's
 * protocol, version 1; the database's side is the migration
 * 20261201000100_limits.sql): above the site's hourly threshold an
 * insert is answered 428 (PT428) until it carries, in a header, the solution
 * of a challenge the API issued. The challenge's shape and the header are in
 * supabase/functions/_shared/core/booking-proof.ts; here, the browser's pure part. Solving is in
 * proof-of-work-solver.ts, loaded only when a proof is asked for.
 */

export {
  bookingChallengeFunction,
  bookingProofHeader,
  encodeBookingProof,
  isBookingChallenge,
  type BookingChallenge,
} from '../../supabase/functions/_shared/core/booking-proof.ts';

/** How long solving may take before the visitor is told the request failed. */
export const proofSolveTimeoutMs = 20_000;

/** True when the API refused the request for want of a proof of work. */
export function isProofOfWorkRequired(status: number, code: string | undefined): boolean {
  return status === 428 || code === 'PT428';
}

/**
 * How many workers search at once: one per core the browser reports, at most
 * `cap`, since each more core shortens the wait less and a phone warms up.
 */
export function solverConcurrency(hardwareConcurrency: number | undefined, cap = 4): number {
  const cores = Number.isInteger(hardwareConcurrency) ? (hardwareConcurrency as number) : 1;
  return Math.max(1, Math.min(cores, cap));
}
