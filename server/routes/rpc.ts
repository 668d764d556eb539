import type { IncomingMessage, ServerResponse } from 'node:http';
import { functionNotFound, invalidJson, unsupportedMethod } from '../http/api-errors.ts';
import { apiCorsHeaders } from '../http/cors.ts';
import { readBody } from '../http/read-body.ts';
import { sendJson } from '../http/send-json.ts';
import { maxBodyBytes } from './bookings.ts';
import type { BookingAnswers } from '../../supabase/functions/_shared/db/booking-answers.ts';
import type { IssueBookingChallenge } from '../db/booking-challenge.ts';

/**
 * The functions under `/rest/v1/rpc/`, as PostgREST serves the SQL functions
 * of the same names on hosted Supabase, for anyone holding the anon key; each
 * is not found when the server was given no way to run it.
 *
 * - `booking_challenge`: a proof-of-work challenge for a booking sent while
 *   the site is flooded; `POST {}`, or `GET` (the function only reads). It
 *   answers the challenge object, bound to the network of the client's address
 *   (the address the server trusts).
 * - `mark_booking_answered` and `unmark_booking_answered`: the button of the
 *   page the e-mail's "Mark as answered" link opens, and its "Undo".
 *   `POST {"token": "…"}` (postgrest-js's `.rpc(name, { token })`); answers
 *   what the function returns, and its own refusals (PT403, PT404, PT410) with
 *   their status. A `GET` runs it in a read-only transaction, as PostgREST
 *   does: the functions change data, so the database refuses it (405) and a
 *   link opened by a mail scanner changes nothing.
 */

export interface RpcDeps {
  /** Proof-of-work challenges (`booking_challenge`); unset: that function is not found. */
  issueBookingChallenge?: IssueBookingChallenge;
  /** Which requests were answered, and marking them and taking the mark back; unset: not found. */
  bookingAnswers?: BookingAnswers;
}

interface RpcCall {
  args: Record<string, unknown>;
  readOnly: boolean;
  /** The client's address as the server trusts it (TRUST_PROXY); undefined when unknown. */
  clientAddress: string | undefined;
}

/** Each function's argument names, sorted, and how it runs (undefined: not available). */
const rpcFunctions: Record<
  string,
  {
    argumentNames: string[];
    run(deps: RpcDeps): ((call: RpcCall) => Promise<unknown>) | undefined;
  }
> = {
  booking_challenge: {
    argumentNames: [],
    run: ({ issueBookingChallenge: issue }) =>
      issue && (({ clientAddress }) => issue(clientAddress)),
  },
  mark_booking_answered: {
    argumentNames: ['token'],
    run: ({ bookingAnswers }) =>
      bookingAnswers &&
      (({ args, readOnly }) => bookingAnswers.markByToken(asText(args.token), { readOnly })),
  },
  unmark_booking_answered: {
    argumentNames: ['token'],
    run: ({ bookingAnswers }) =>
      bookingAnswers &&
      (({ args, readOnly }) => bookingAnswers.unmarkByToken(asText(args.token), { readOnly })),
  },
};

export async function callRpc(
  name: string,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  deps: RpcDeps,
  clientAddress: string | undefined,
) {
  const rpc = Object.hasOwn(rpcFunctions, name) ? rpcFunctions[name] : undefined;
  const run = rpc?.run(deps);
  if (!rpc || !run) throw functionNotFound(name);
  const args = await readRpcArguments(req, url);
  // PostgREST finds functions by their arguments' names: other names name no function.
  const names = Object.keys(args).sort();
  if (names.join() !== rpc.argumentNames.join()) {
    throw functionNotFound(`${name}(${names.join(', ')})`);
  }
  const result = await run({ args, readOnly: req.method !== 'POST', clientAddress });
  sendJson(res, 200, result, apiCorsHeaders);
}

/** The methods PostgREST serves a function by. */
const rpcMethods = 'GET, HEAD, POST';

/**
 * The arguments of an RPC call, as PostgREST reads them: for POST a JSON
 * object whose keys name the function's arguments (an empty body is no
 * argument; anything else is refused, 400 PGRST102), for GET and HEAD the
 * query string. Other methods: 405.
 */
async function readRpcArguments(req: IncomingMessage, url: URL): Promise<Record<string, unknown>> {
  const method = req.method ?? 'GET';
  if (!rpcMethods.split(', ').includes(method)) throw unsupportedMethod(method, rpcMethods);
  if (method !== 'POST') return Object.fromEntries(url.searchParams.entries());
  const body = (await readBody(req, maxBodyBytes)).toString('utf8');
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

/** A JSON value as PostgREST passes it to a text argument: strings as they are, others as JSON. */
function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
