import type { BookingAnswers } from '../../supabase/functions/_shared/db/booking-answers.ts';
import { functionNotFound } from '../http/api-errors.ts';
import { sendJson } from '../http/send-json.ts';
import { readRpcArguments, type RpcRequest } from './rpc-arguments.ts';

/**
 * `/rest/v1/rpc/mark_booking_answered` and `/rest/v1/rpc/unmark_booking_answered`:
 * the button of the page the e-mail's "Mark as answered" link opens, and its
 * "Undo", as PostgREST serves the SQL functions of the same names on hosted
 * Supabase. `POST {"token": "…"}` (postgrest-js's `.rpc(name, { token })`)
 * with the anon key; answers what the function returns, and its own
 * refusals (PT403, PT404, PT410) with their status. A `GET` runs it in a
 * read-only transaction, as PostgREST does: the functions change data, so the
 * database refuses it (405) and a link opened by a mail scanner changes nothing.
 */

export const answerTokenRpcNames = ['mark_booking_answered', 'unmark_booking_answered'] as const;

type AnswerTokenRpcName = (typeof answerTokenRpcNames)[number];

export function isAnswerTokenRpc(name: string): name is AnswerTokenRpcName {
  return (answerTokenRpcNames as readonly string[]).includes(name);
}

/** The functions' one argument. */
const argumentName = 'token';

export async function callAnswerTokenRpc(
  name: AnswerTokenRpcName,
  { req, res, headers }: RpcRequest,
  url: URL,
  answers: BookingAnswers | undefined,
) {
  if (!answers) throw functionNotFound(name);
  const args = await readRpcArguments(req, url);
  // PostgREST finds functions by their arguments' names: other names name no function.
  const names = Object.keys(args);
  if (names.length !== 1 || names[0] !== argumentName) {
    throw functionNotFound(`${name}(${names.sort().join(', ')})`);
  }
  const call = name === 'mark_booking_answered' ? answers.markByToken : answers.unmarkByToken;
  const result = await call(asText(args[argumentName]), {
    readOnly: req.method !== 'POST',
  });
  sendJson(res, 200, result, headers);
}

/** A JSON value as PostgREST passes it to a text argument: strings as they are, others as JSON. */
function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
