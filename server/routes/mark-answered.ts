import type { BookingAnswers } from '../../supabase/functions/_shared/db/booking-answers.ts';
import { functionNotFound } from '../http/api-errors.ts';
import { sendJson } from '../http/send-json.ts';
import type { RpcRequest } from './notification-rpc.ts';
import { readRpcArguments } from './rpc-arguments.ts';

/**
 * `/rest/v1/rpc/mark_booking_answered`: the button of the page the e-mail's
 * "Mark as answered" link opens, as PostgREST serves the SQL function of the
 * same name on hosted Supabase. `POST {"token": "…"}` (postgrest-js's
 * `.rpc('mark_booking_answered', { token })`) for the anon or service key;
 * answers `{reference, answered_at}`, and the function's own refusals (PT403,
 * PT404, PT410) with their status. A `GET` runs it in a read-only transaction,
 * as PostgREST does: the function changes data, so the database refuses it
 * (405) and a link opened by a mail scanner changes nothing.
 */

export const markAnsweredRpcName = 'mark_booking_answered';

/** The function's one argument. */
const argumentName = 'token';

export async function callMarkAnswered(
  { req, res, role, headers }: RpcRequest,
  url: URL,
  answers: BookingAnswers | undefined,
) {
  if (!answers) throw functionNotFound(markAnsweredRpcName);
  const args = await readRpcArguments(req, url);
  // PostgREST finds functions by their arguments' names: other names name no function.
  const names = Object.keys(args);
  if (names.length !== 1 || names[0] !== argumentName) {
    throw functionNotFound(`${markAnsweredRpcName}(${names.sort().join(', ')})`);
  }
  const mark = await answers.markByToken(role, asText(args[argumentName]), {
    readOnly: req.method !== 'POST',
  });
  sendJson(res, 200, mark, headers);
}

/** A JSON value as PostgREST passes it to a text argument: strings as they are, others as JSON. */
function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
