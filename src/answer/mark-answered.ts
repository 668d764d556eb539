import { restEndpoint } from '../lib/rest-endpoint.ts';
import { answerOutcome, type AnswerOutcome } from './answer-outcome.ts';

/** The SQL function the button calls, as PostgREST exposes it (`/rest/v1/rpc/<name>`). */
const markAnsweredFunction = 'mark_booking_answered';

/** How long the button waits for an answer before saying the connection failed. */
const requestTimeoutMs = 15_000;

/**
 * Marks the request of `token` answered, as postgrest-js's
 * `.rpc('mark_booking_answered', { token })` would, without loading it: one
 * POST. Called only by the button, never on opening the page (mail scanners
 * open links). Never throws: a lost connection is the 'failed' outcome.
 */
export async function markAnswered(
  token: string,
  timeoutMs = requestTimeoutMs,
): Promise<AnswerOutcome> {
  const { url, key } = restEndpoint();
  try {
    const response = await fetch(`${url}/rpc/${markAnsweredFunction}`, {
      method: 'POST',
      headers: {
        apikey: key,
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
      body: JSON.stringify({ token }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body: unknown = await response.json().catch(() => undefined);
    return answerOutcome(response.status, body);
  } catch {
    return { kind: 'failed' };
  }
}
