import type { IssueBookingChallenge } from '../db/booking-challenge.ts';
import { functionNotFound } from '../http/api-errors.ts';
import { sendJson } from '../http/send-json.ts';
import { readRpcArguments, type RpcRequest } from './rpc-arguments.ts';

/**
 * `/rest/v1/rpc/booking_challenge`: a proof-of-work challenge for a booking
 * sent while the site is flooded, as PostgREST serves the SQL function of the
 * same name on hosted Supabase. `POST` with `{}`, or `GET` (the function only
 * reads), for anyone holding the anon key; it answers the challenge object,
 * bound to the network of `clientAddress` (the address the server trusts).
 */

export const bookingChallengeRpcName = 'booking_challenge';

export async function callBookingChallenge(
  { req, res, headers }: RpcRequest,
  url: URL,
  issue: IssueBookingChallenge | undefined,
  clientAddress: string | undefined,
) {
  if (!issue) throw functionNotFound(bookingChallengeRpcName);
  const argumentNames = Object.keys(await readRpcArguments(req, url));
  // The function takes no argument: PostgREST finds none by the names given.
  if (argumentNames.length > 0) {
    throw functionNotFound(`${bookingChallengeRpcName}(${argumentNames.join(', ')})`);
  }
  sendJson(res, 200, await issue(clientAddress), headers);
}
