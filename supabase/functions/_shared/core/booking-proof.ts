/**
 * The proof of work a booking request needs while the site is flooded (ALTCHA's
 * protocol, version 1), as the browser, the server and the tests see it. The
 * database makes challenges and checks solutions
 * (supabase/migrations/20261201000100_limits.sql): above the site's
 * hourly threshold an insert is answered 428 (PT428) until it carries, in a
 * header, the solution of a challenge the API issued.
 */

/** The API function that issues challenges (`POST /rest/v1/rpc/booking_challenge`). */
export const bookingChallengeFunction = 'booking_challenge';

/** The request header that carries the solution (PostgREST passes it to SQL in lower case). */
export const bookingProofHeader = 'x-booking-proof';

/** Find n in 0..maxnumber with hex(SHA-256(salt + n)) = challenge; the signature vouches for it. */
export interface BookingChallenge {
  algorithm: 'SHA-256';
  challenge: string;
  maxnumber: number;
  salt: string;
  signature: string;
}

/** The database's own bound on maxnumber: a larger one is not a challenge it issued. */
const largestMaxNumber = 10_000_000;

/** Whether an answer of the API is a challenge that can be worked on (anything else fails). */
export function isBookingChallenge(value: unknown): value is BookingChallenge {
  if (typeof value !== 'object' || value === null) return false;
  const { algorithm, challenge, maxnumber, salt, signature } = value as Record<string, unknown>;
  return (
    algorithm === 'SHA-256' &&
    typeof challenge === 'string' &&
    /^[0-9a-f]{64}$/.test(challenge) &&
    Number.isSafeInteger(maxnumber) &&
    (maxnumber as number) > 0 &&
    (maxnumber as number) <= largestMaxNumber &&
    typeof salt === 'string' &&
    typeof signature === 'string'
  );
}

/** The header's value: base64 of the JSON the database checks. */
export function encodeBookingProof(challenge: BookingChallenge, number: number): string {
  const { algorithm, challenge: hash, salt, signature } = challenge;
  const json = JSON.stringify({ algorithm, challenge: hash, number, salt, signature });
  // btoa takes bytes as characters: encode the JSON as UTF-8 first.
  return btoa(String.fromCharCode(...new TextEncoder().encode(json)));
}
