import { shortReference } from '../core/booking-reference.ts';
import type { Database } from '../db/database.ts';
import { composeAcknowledgement } from './acknowledgement-email.ts';
import { replyWithinMs } from './booking-notice.ts';
import { createMailer, mailboxOf, sendTimeoutMs, type EmailSettings } from './channels.ts';
import { createMessageQueue } from './message-queue.ts';
import {
  describeError,
  formatDelay,
  retryDelayMs,
  withoutAddresses,
  type NotifierTask,
} from './notifier.ts';
import type { NotifyConfig } from './notify-config.ts';
import { recordAcknowledgementRefused, refusesMailbox } from './practice-alerts.ts';

/**
 * The e-mails that tell visitors their request arrived (NOTIFY_ACKNOWLEDGE). The database decides which request is
 * acknowledged and keeps a mailbox (however its address is spelt:
 * app_private.mailbox_key) to one acknowledgement in `replyWithinHours`,
 * however many requests name it and however many notifiers run, and the site
 * to 20 an hour whatever the addresses (app_private.claim_acknowledgement,
 * 20261206000000_acknowledged_mailbox.sql); this task sends each
 * one it is given and records the outcome:
 * - sent: the SMTP server took it;
 * - refused: the server refused the visitor's mailbox for good (5xx to
 *   RCPT TO), so the practice is alerted to phone instead;
 * - anything else (the server down, a 4xx, a login refused, a relay the
 *   practice's own server denies): tried again after the notifier's backoff,
 *   until the request is an hour old.
 *
 * The envelope sender is the practice's own address, so a bounce that comes
 * later, from the visitor's mail server, also reaches the practice.
 */

/** With the notifier's backoff. */
interface AcknowledgementTaskOptions extends Pick<NotifyConfig, 'retryBaseMs' | 'retryMaxMs'> {
  db: Database;
  email: EmailSettings;
}

/** A late "we have your request" helps no one: older requests get none. */
const maxAgeMs = 3_600_000;

/** The most acknowledgements sent in one run of the notifier; the rest wait for the next. */
const maxPerRun = 20;

/** A claim outlives the slowest send, so that no other notifier takes it over mid-send. */
const leaseMs = sendTimeoutMs + 60_000;

interface ClaimedAcknowledgement {
  booking_id: string;
  created_at: string;
  full_name: string;
  email: string;
  attempts: number;
}

/**
 * The SMTP server's reply when it refused the mailbox `address` for good at
 * RCPT TO (a 5xx about the mailbox: refusesMailbox), else undefined: every
 * other failure may pass, the practice's own server denying a relay included.
 */
function permanentRefusalOf(error: unknown, address: string): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { responseCode, command, rejected, response } = error as Record<string, unknown>;
  const refusedForGood = typeof responseCode === 'number' && responseCode >= 500;
  const visitorRejected =
    Array.isArray(rejected) &&
    rejected.some((entry) => String(entry).toLowerCase() === address.toLowerCase());
  if (!refusedForGood || command !== 'RCPT TO' || !visitorRejected) return undefined;
  const reply = typeof response === 'string' ? response : `${responseCode} (no text)`;
  return refusesMailbox(reply) ? reply : undefined;
}

export function createAcknowledgementTask(options: AcknowledgementTaskOptions): NotifierTask {
  const { db, email } = options;
  const mailer = createMailer(email);
  const queue = createMessageQueue(db);
  // Replies go to the practice's inbox, whoever the sending account is.
  const replyTo = email.to.map(mailboxOf);

  async function claimNext(claim: string, asOf: Date) {
    const { rows } = await db.query<ClaimedAcknowledgement>(
      `select booking_id::text as booking_id,
              to_json(created_at) #>> '{}' as created_at,
              full_name, email, attempts
         from app_private.claim_acknowledgement(
                $1, make_interval(secs => $2), make_interval(secs => $3),
                make_interval(secs => $4), $5)`,
      [claim, leaseMs / 1000, maxAgeMs / 1000, replyWithinMs / 1000, asOf.toISOString()],
    );
    return rows[0];
  }

  async function send(request: ClaimedAcknowledgement) {
    const message = composeAcknowledgement({
      bookingId: request.booking_id,
      fullName: request.full_name,
      createdAt: new Date(request.created_at),
    });
    await mailer.send(`acknowledgement-${request.booking_id}`, {
      // The address alone, as a mailbox: nodemailer never parses it, so no name
      // or list the visitor might have typed reaches a header or the envelope.
      to: { name: '', address: request.email },
      replyTo,
      subject: message.subject,
      text: message.text,
      html: message.html,
      headers: {
        // RFC 3834: no out-of-office answer to an automatic message; a person may still reply.
        'Auto-Submitted': 'auto-generated',
      },
    });
  }

  async function markRefused(request: ClaimedAcknowledgement, claim: string, reply: string) {
    await db.transaction(async (tx) => {
      const refused = await createMessageQueue(tx).settle({ claim }, 'refused', { note: reply });
      // Another notifier has it now: the alert is its to leave.
      if (refused === 0) return;
      await recordAcknowledgementRefused(tx, {
        bookingId: request.booking_id,
        receivedAt: new Date(request.created_at),
        smtpReply: reply,
        refusedAddress: request.email,
      });
    });
  }

  return {
    name: 'acknowledgements',
    async run({ now, isStopping, log }) {
      // The run's clock, moving on from the notifier's as the sends take time.
      const startedAt = performance.now();
      const clock = () => new Date(now.getTime() + (performance.now() - startedAt));
      for (let count = 0; count < maxPerRun && !isStopping(); count += 1) {
        const claim = crypto.randomUUID();
        const request = await claimNext(claim, clock());
        if (!request) return;
        const reference = shortReference(request.booking_id);
        try {
          await send(request);
        } catch (error) {
          const refusal = permanentRefusalOf(error, request.email);
          if (refusal !== undefined) {
            await markRefused(request, claim, refusal);
            log.error(
              `The acknowledgement of request ${reference} was refused by the visitor's mail server (${withoutAddresses(refusal)}); telling the practice to phone instead.`,
            );
            continue;
          }
          const reason = describeError(error);
          const delayMs = retryDelayMs(request.attempts, options.retryBaseMs, options.retryMaxMs);
          await queue.retryLater({ claim }, delayMs, reason, clock());
          log.error(
            `The acknowledgement of request ${reference} failed (attempt ${request.attempts}): ${reason}. Next attempt in ${formatDelay(delayMs)}.`,
          );
          // Most likely the SMTP server's failure, not this visitor's: the others wait for the next run.
          return;
        }
        if (await queue.settle({ claim }, 'sent', { note: null, at: clock() })) {
          log.info(`Told the visitor of request ${reference} that it arrived.`);
        } else {
          log.error(
            `The acknowledgement of request ${reference} was sent, but its claim had expired; it may be sent twice.`,
          );
        }
      }
    },
    close: mailer.close,
  };
}
