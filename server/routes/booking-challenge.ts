import type { IssueBookingChallenge } from '../db/booking-challenge.ts';
import { functionNotFound, invalidJson, unsupportedMethod } from '../http/api-errors.ts';
import { readBody } from '../http/read-body.ts';
import { sendJson } from '../http/send-json.ts';
import type { RpcRequest } from './notification-rpc.ts';

/**
 * `/rest/v1/rpc/booking_challenge`: a proof-of-work challenge for a booking
 * sent while the site is flooded, as PostgREST serves the SQL function of the
 * same name on hosted Supabase. `POST` with `{}`, or `GET` (the function only
 * reads), for anyone holding the anon key; it answers the challenge object.
 */

export const bookingChallengeRpcName = 'booking_challenge';

const allowedMethods = 'GET, HEAD, POST';

export async function callBookingChallenge(
  { req, res, role, headers }: RpcRequest,
  url: URL,
  issue: IssueBookingChallenge | undefined,
) {
  if (!issue) throw functionNotFound(bookingChallengeRpcName);
  const method = req.method ?? 'GET';
  if (!allowedMethods.split(', ').includes(method)) throw unsupportedMethod(method, allowedMethods);
  const argumentNames =
    method === 'POST' ? Object.keys(await readArguments(req)) : [...url.searchParams.keys()];
  // The function takes no argument: PostgREST finds none by the names given.
  if (argumentNames.length > 0) {
    throw functionNotFound(`${bookingChallengeRpcName}(${argumentNames.join(', ')})`);
  }
  sendJson(res, 200, await issue(role), headers);
}

async function readArguments(req: RpcRequest['req']): Promise<Record<string, unknown>> {
  const body = (await readBody(req, 16 * 1024)).toString('utf8');
  if (body.trim() === '') return {};
  let args: unknown;
  try {
    args = JSON.parse(body);
  } catch {
    throw invalidJson();
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) throw invalidJson();
  return args as Record<string, unknown>;
}
