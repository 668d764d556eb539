import {
  bookingChallengeFunction,
  bookingProofHeader,
  encodeBookingProof,
  isBookingChallenge,
} from '../../supabase/functions/_shared/core/booking-proof.ts';
import { composeAlert } from '../../supabase/functions/_shared/notifications/practice-alerts.ts';
import { solveBookingChallenge } from './booking-proof.ts';
import { anonJsonHeaders } from './helpers.ts';
import { bookingWithId } from './booking-samples.ts';
import type { ReceivedMail } from './notification-peers.ts';

/**
 * A flood as an attacker sends it, for the browser test and the benchmark:
 * booking requests passed on by a trusted proxy that writes X-Forwarded-For,
 * each proof of work asked for solved with Node's native SHA-256; and what
 * the practice's inbox then holds.
 */

/** One booking request from `client`, with a proof when the API asks for one; the final status. */
export async function sendFloodRequest(
  siteUrl: string,
  client: string,
  email: string,
): Promise<number> {
  const api = `${siteUrl}/rest/v1`;
  const headers = { ...anonJsonHeaders, 'X-Forwarded-For': client };
  const send = (proof?: string) =>
    fetch(`${api}/bookings`, {
      method: 'POST',
      headers: proof === undefined ? headers : { ...headers, [bookingProofHeader]: proof },
      body: JSON.stringify(bookingWithId({ full_name: 'Flood Robot', email })),
    });
  const first = await send();
  if (first.status !== 428) return first.status;
  const answer = await fetch(`${api}/rpc/${bookingChallengeFunction}`, {
    method: 'POST',
    headers,
    body: '{}',
  });
  const challenge: unknown = await answer.json();
  if (!isBookingChallenge(challenge)) throw new Error(`No challenge: ${JSON.stringify(challenge)}`);
  return (await send(encodeBookingProof(challenge, solveBookingChallenge(challenge)))).status;
}

export type PracticeMailKind = 'booking' | 'digest' | 'alert';

/** What a message to the practice is, during a flood past `threshold` an hour. */
export function practiceMailKind(mail: ReceivedMail, threshold: number): PracticeMailKind {
  const alert = composeAlert({
    id: 'flood',
    kind: 'flood',
    createdAt: new Date(),
    details: { threshold },
  });
  if (mail.parsed.subject === alert.subject) return 'alert';
  // Its Message-ID is made from its number (channels.ts), the same at every attempt.
  if (mail.parsed.messageId?.startsWith('<flood-digest-')) return 'digest';
  return 'booking';
}
