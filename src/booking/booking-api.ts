import { bookingsTable } from '../../supabase/functions/_shared/core/api-defaults.ts';
import type { BookingRow } from '../../supabase/functions/_shared/core/booking-row.ts';
import { requestTimeoutSignal, restEndpoint } from '../lib/rest-endpoint.ts';
import {
  bookingChallengeFunction,
  bookingProofHeader,
  encodeBookingProof,
  isBookingChallenge,
  isProofOfWorkRequired,
  proofSolveTimeoutMs,
} from './proof-of-work.ts';

/** PostgreSQL's unique violation: the row with this id is already stored, i.e. an earlier try arrived. */
const alreadyStored = '23505';

/** The REST client's code; a page that cannot have it must be reloaded (PageOutdatedError). */
const restClient = () =>
  import('@supabase/postgrest-js').catch((cause: unknown) => {
    throw new PageOutdatedError({ cause });
  });

/** Starts downloading the REST client before it is needed, e.g. when the booking view opens. */
export function preloadBookingClient(): void {
  void restClient().catch(() => {
    // The send that needs it says so.
  });
}

class BookingRequestError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    /** The HTTP status, when an answer came; 429 means too many requests. */
    readonly status: number | undefined,
  ) {
    super(message);
    this.name = 'BookingRequestError';
  }
}

/**
 * Inserts one booking request, the way supabase-js does it, and reads nothing
 * back: anonymous callers may insert but not select. Resolves when the row is
 * stored; throws otherwise. `website` is the honeypot, sent only when a robot
 * filled it: the database then answers as if it stored the row. While the site
 * is flooded the API asks for a proof of work: it is computed and the insert
 * sent again, with nothing for the visitor to do.
 */
export async function sendBookingRequest(row: BookingRow & { website?: string }): Promise<void> {
  const { PostgrestClient } = await restClient();
  const { url, key } = restEndpoint();
  const client = new PostgrestClient(url, {
    headers: { apikey: key, Authorization: `Bearer ${key}` },
  });
  const insert = (proof?: string) => {
    const request = client.from(bookingsTable).insert(row);
    if (proof !== undefined) request.setHeader(bookingProofHeader, proof);
    return request.abortSignal(requestTimeoutSignal());
  };
  const challenge = async () => {
    const { data, error, status } = await client
      .rpc(bookingChallengeFunction, {})
      .abortSignal(requestTimeoutSignal());
    if (error) throw new BookingRequestError(error.message, error.code, status || undefined);
    return data as unknown;
  };
  let answer = await insert();
  if (answer.error && isProofOfWorkRequired(answer.status, answer.error.code)) {
    answer = await insert(await proveWork(challenge));
  }
  const { error, status } = answer;
  if (error && error.code !== alreadyStored) {
    throw new BookingRequestError(error.message, error.code, status || undefined);
  }
}

/**
 * The code a send needs (the REST client, the proof of work's solver) did not
 * come: the site was updated since the page loaded, and its files have new
 * names, or the connection dropped while it was fetched. Only a reload brings
 * it: a page does not fetch again a module that failed once, so trying again
 * cannot.
 */
class PageOutdatedError extends Error {
  constructor(options: { cause: unknown }) {
    super('The code this page needs to send did not come', options);
    this.name = 'PageOutdatedError';
  }
}

/** True when the page must be reloaded before it can send. */
export function isPageOutdated(error: unknown): boolean {
  return error instanceof PageOutdatedError;
}

/** The X-Booking-Proof header's value: a new challenge from the API, solved in Web Workers. */
async function proveWork(requestChallenge: () => Promise<unknown>): Promise<string> {
  // The solver's code arrives while the challenge does.
  const [solver, answer] = await Promise.allSettled([
    import('./proof-of-work-solver.ts'),
    requestChallenge(),
  ]);
  if (answer.status === 'rejected') throw answer.reason;
  if (solver.status === 'rejected') throw new PageOutdatedError({ cause: solver.reason });
  const { solveBookingChallenge } = solver.value;
  const challenge = answer.value;
  if (!isBookingChallenge(challenge)) {
    throw new BookingRequestError('The API answered no challenge', undefined, undefined);
  }
  const number = await solveBookingChallenge(challenge, proofSolveTimeoutMs);
  return encodeBookingProof(challenge, number);
}

/** True when the answer said too many requests: the visitor should wait, not retry at once. */
export function isThrottled(error: unknown): boolean {
  return error instanceof BookingRequestError && error.status === 429;
}
