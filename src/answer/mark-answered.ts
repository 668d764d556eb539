import { requestTimeoutSignal, restEndpoint } from '../lib/rest-endpoint.ts';
import { answerOutcome, type AnswerOutcome } from './answer-outcome.ts';

/** The SQL functions the buttons call, as PostgREST exposes them (`/rest/v1/rpc/<name>`). */
type AnswerFunction = 'mark_booking_answered' | 'unmark_booking_answered';

/** Marks the request of `token` answered. */
export const markAnswered = (token: string) => callAnswerFunction('mark_booking_answered', token);

/** Takes the mark of the request of `token` back ("Undo"). */
export const unmarkAnswered = (token: string) =>
  callAnswerFunction('unmark_booking_answered', token);

/**
 * Calls `name` with the token, as postgrest-js's `.rpc(name, { token })`
 * would, without loading it: one POST. Called only by a button, never on
 * opening the page (mail scanners open links). Never throws: a lost connection
 * is the 'failed' outcome.
 */
async function callAnswerFunction(name: AnswerFunction, token: string): Promise<AnswerOutcome> {
  const { url, key } = restEndpoint();
  try {
    const response = await fetch(`${url}/rpc/${name}`, {
      method: 'POST',
      headers: {
        apikey: key,
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
      body: JSON.stringify({ token }),
      signal: requestTimeoutSignal(),
    });
    const body: unknown = await response.json().catch(() => undefined);
    return answerOutcome(response.status, body);
  } catch {
    return { kind: 'failed' };
  }
}
