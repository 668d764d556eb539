import type { BookingChallenge } from '../../supabase/functions/_shared/core/booking-proof.ts';
import { callApiFunction } from '../../supabase/functions/_shared/db/api-function.ts';
import { databaseRequestHeaders } from '../../supabase/functions/_shared/db/bookings-repository.ts';
import type { Database } from '../../supabase/functions/_shared/db/database.ts';

/**
 * The proof-of-work challenges a browser solves while the site is flooded
 * (ALTCHA v1): public.booking_challenge() of the migration
 * 20261201000100_limits.sql makes and signs them with a key no API
 * role can read, so this layer only calls it, as `anon`, the way PostgREST
 * runs a function for the page. The challenge is bound to the client's network,
 * read from the address given as PostgREST would pass it: a proof solved for
 * one network is refused from another.
 */

/** Issues one new challenge for the client at `clientAddress` (undefined when unknown). */
export type IssueBookingChallenge = (
  clientAddress: string | undefined,
) => Promise<BookingChallenge>;

export function createBookingChallengeIssuer(db: Database): IssueBookingChallenge {
  return (clientAddress) =>
    callApiFunction<BookingChallenge>(db, 'public.booking_challenge()', [], {
      requestHeaders:
        clientAddress === undefined
          ? {}
          : { [databaseRequestHeaders.clientAddress]: clientAddress },
    });
}
