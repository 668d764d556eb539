import { practice } from '../content/practice.ts';
import type { Database, Queryable } from '../db/database.ts';
import { shortReference } from '../core/booking-reference.ts';
import { formatUkTimeLong } from '../uk-time.ts';
import { floodDigestIntervalMs } from './flood-digest.ts';
import { channelWords, sentChannels, sentFlagsSql, type ChannelName } from './channel-names.ts';
import { alertKinds, createMessageQueue, type ClaimedMessage } from './message-queue.ts';
import { capList, formatCount, listCommandFrom } from './message-lists.ts';

/**
 * Messages to the practice about the booking form and its notifications, kept
 * in the one queue (message-queue.ts) until sent, each kind a kind of message:
 * - `flood`, left by the database (20261201000100_limits.sql) when more
 *   requests than the site's hourly threshold arrive within an hour, at most
 *   once an hour while they keep coming;
 * - `no_client_address`, left by the database
 *   (20261202000300_client_network_and_proof.sql) when requests arrive whose
 *   client address is missing or unreadable, at most once an hour while they
 *   keep coming: the proxy or gateway setting is wrong;
 * - `notification_failing`, left by the notifier when notifications have kept
 *   failing for NOTIFY_ALERT_AFTER_MINUTES (20261201000200_notifications.sql),
 *   once for each notification;
 * - `acknowledgement_refused`, left by the acknowledgements task
 *   (acknowledgements.ts) when the visitor's mail server refused the e-mail
 *   telling them their request arrived: the practice phones them instead.
 * The notifier sends each alert through every channel; one that any channel
 * takes is sent, so a broken e-mail account is reported by the webhook and a
 * broken webhook by e-mail. A `notification_failing` alert speaks only of the
 * notifications still failing when it goes out: one that waited (its channel
 * broken too) while they got through is not sent at all.
 */

/** What the database records with a flood alert. */
interface FloodDetails {
  /** The site's hourly threshold that was passed (booking_limits.site_per_hour). */
  threshold: number;
}

/** A notification reported as failing: no personal data, only the booking's id. */
interface FailingNotificationDetail {
  booking_id: string;
  /** When the request arrived, ISO 8601. */
  received_at: string;
  attempts: number;
  last_error: string | null;
  /** The configured channels that have not taken it. */
  unsent: ChannelName[];
}

interface FailingNotificationsDetails {
  after_minutes: number;
  notifications: FailingNotificationDetail[];
}

/**
 * A visitor's address that refused the acknowledgement: the request's id and
 * the mail server's reply, with the address itself taken out of it, so that
 * nothing the visitor typed is repeated (ntfy and webhooks included).
 */
interface AcknowledgementRefusedDetails {
  booking_id: string;
  /** When the request arrived, ISO 8601. */
  received_at: string;
  /** What the visitor's mail server answered, e.g. `550 5.1.1 User unknown`. */
  smtp_reply: string;
}

export type PracticeAlert = { id: string; createdAt: Date } & (
  | { kind: 'flood'; details: FloodDetails | null } // null: stored before the threshold was
  | { kind: 'no_client_address'; details: null }
  | { kind: 'notification_failing'; details: FailingNotificationsDetails }
  | { kind: 'acknowledgement_refused'; details: AcknowledgementRefusedDetails }
);

const channelAdvice: Record<ChannelName, string> = {
  email:
    'E-mail: check SMTP_URL (the server, the port, the user name and the password; Gmail needs an app password) and NOTIFY_FROM, which most providers want to be the account\u2019s own address. The server checks the login at start and says what failed. On hosted Supabase, set them again with `supabase secrets set` and look at the function\u2019s logs.',
  webhook:
    'Webhook: check NOTIFY_WEBHOOK_URL, and that the service receiving it (Zapier, Make, Slack\u2026) is still set up and answers.',
  ntfy: 'ntfy push: check NOTIFY_NTFY_URL (the server and the topic) and, for a protected topic, NOTIFY_NTFY_TOKEN; the error says what the ntfy server answered (401 or 403: the token; 429: its daily limit).',
};

/**
 * Whether an SMTP reply refuses a mailbox itself: with an enhanced status code
 * (RFC 3463), 5.1.x its address or 5.2.x the mailbox; without one, 550 to 553
 * not about relaying or a login. A refusal to relay (5.7.1) comes from the
 * sending server's own rules, and says nothing of the address.
 */
export function refusesMailbox(reply: string): boolean {
  const enhanced = /\b[45]\d\d[ -]([45]\.\d{1,3})\.\d{1,3}\b/.exec(reply)?.[1];
  if (enhanced !== undefined) return enhanced === '5.1' || enhanced === '5.2';
  return /\b55[0-3]\b/.test(reply) && !/relay|auth/i.test(reply);
}

/**
 * A notification refused at the practice's own address, which no password
 * change mends: a mailbox refusal at RCPT TO, as nodemailer words that step's
 * failure. The same codes at MAIL FROM or after DATA refuse the sender
 * (Microsoft 365's 5.2.252 SendAsDenied: NOTIFY_FROM), not NOTIFY_TO.
 */
function refusedRecipient({ last_error }: FailingNotificationDetail): boolean {
  const error = last_error ?? '';
  return (
    /all recipients were rejected|Recipient command failed/i.test(error) && refusesMailbox(error)
  );
}

const refusedRecipientAdvice =
  'The mail server refused the address the requests are sent to: check NOTIFY_TO, the practice\u2019s address that receives booking requests (mistyped, or a mailbox that no longer exists).';

/** "an hour", "90 minutes", "2 hours". */
function describeMinutes(minutes: number): string {
  if (minutes === 60) return 'an hour';
  if (minutes % 60 === 0) return `${minutes / 60} hours`;
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** What the practice reads about an alert, by e-mail or in a webhook. */
export function composeAlert(alert: PracticeAlert): { subject: string; text: string } {
  switch (alert.kind) {
    case 'flood': {
      const threshold = alert.details?.threshold;
      const more =
        threshold === undefined
          ? "More booking requests than the site's hourly threshold"
          : `More than ${threshold} booking requests`;
      const above = threshold === undefined ? 'above the threshold' : `above ${threshold}`;
      return {
        subject: `${more} in an hour: the booking form is being flooded`,
        text: [
          `${more} arrived within the hour up to ${formatUkTimeLong(alert.createdAt)}. So many at once are usually a robot.`,
          '',
          'What happens now, by itself:',
          '- Each new request must carry a proof of work: a small computation that visitors\u2019 browsers do by themselves, unseen, in a moment. Real visitors can still book; a robot pays for every request.',
          `- The requests ${above} an hour are not e-mailed one by one: they come together in a digest every ${floodDigestIntervalMs / 60_000} minutes, each with its name and reference. Every request is kept.`,
          '- This alert comes again each hour while the flood lasts.',
          '',
          `Look at the requests with \`${listCommandFrom(new Date(alert.createdAt.getTime() - 3_600_000))}\` (on hosted Supabase, with DATABASE_URL set; or the table editor, table bookings).`,
          '',
          'If they are real visitors (after a post that many people saw, say), raise the threshold:',
          '  update app_private.booking_limits set site_per_hour = 120;',
          'in the SQL editor of Supabase, or BOOKING_LIMIT_SITE_PER_HOUR on the project\u2019s server.',
          '',
        ].join('\n'),
      };
    }
    case 'no_client_address':
      return {
        subject:
          'Booking requests arrive without the visitor\u2019s address: check the proxy setting',
        text: [
          `Booking requests arrived without a readable client address, the first at ${formatUkTimeLong(alert.createdAt)}. The limits per visitor count them all as one visitor, so the setting that passes on visitors\u2019 addresses is wrong.`,
          '',
          'What happens now, by itself:',
          '- Each such request must carry a proof of work, which visitors\u2019 browsers do by themselves, unseen. Together they may send as many requests in an hour as the whole site takes before a flood (BOOKING_LIMIT_SITE_PER_HOUR, or site_per_hour); beyond that they are refused.',
          '- This alert comes again each hour while such requests keep arriving.',
          '',
          'What to check:',
          '- On the project\u2019s server: TRUST_PROXY must list the reverse proxy in front of it (`loopback` for Caddy on the same machine, deploy/Caddyfile), and that proxy must write X-Forwarded-For.',
          '- On hosted Supabase: the site must send its requests to the project\u2019s own address (https://<project>.supabase.co), through Supabase\u2019s gateway, which sets the visitor\u2019s address (cf-connecting-ip); not through another proxy or a custom domain that drops it.',
          '',
          'Then send a booking from the site and run, in the SQL editor:',
          '  select network from app_private.booking_clients order by created_at desc limit 1;',
          'It should show your own address, not \u201cunknown\u201d (docs/limits.md).',
          '',
        ].join('\n'),
      };
    case 'notification_failing': {
      const { notifications } = alert.details;
      const failed = [...new Set(notifications.flatMap((entry) => entry.unsent))].sort();
      const how = failed.map((name) => channelWords[name]).join(' or ') || 'by any channel';
      const count = notifications.length;
      const requests =
        count === 1 ? 'A booking request has' : `${formatCount(count)} booking requests have`;
      // A flood's requests, failing with their digest, would make an alert of megabytes.
      const { listed, unlisted } = capList(notifications);
      return {
        subject: `${requests} not reached you ${how}`,
        text: [
          `${count === 1 ? 'This booking request has' : `These ${formatCount(count)} booking requests have`} not reached you ${how} for more than ${describeMinutes(alert.details.after_minutes)}. ${count === 1 ? 'It is' : 'They are'} retried until ${count === 1 ? 'it gets' : 'they get'} through, but a reply was promised within ${practice.replyWithinHours} hours:`,
          '',
          ...listed.flatMap((entry) => [
            `  Ref ${shortReference(entry.booking_id)}, received ${formatUkTimeLong(new Date(entry.received_at))}, ${entry.attempts} attempt${entry.attempts === 1 ? '' : 's'}`,
            `    ${entry.last_error ?? 'no reason recorded'}`,
          ]),
          ...(unlisted > 0
            ? [
                `  \u2026 and ${formatCount(unlisted)} more: ${listCommandFrom(new Date(listed[0]!.received_at))}`,
              ]
            : []),
          '',
          'What to check:',
          ...(failed.includes('email') && notifications.some(refusedRecipient)
            ? [`- ${refusedRecipientAdvice}`]
            : []),
          ...failed.map((name) => `- ${channelAdvice[name]}`),
          '',
          'See the requests and the state of their notifications with `npx hijama list` (the Notified column), or in the table editor of Supabase (table bookings, by id).',
          'docs/notifications.md, \u201cWhen a notification fails\u201d, goes through it step by step.',
          '',
        ].join('\n'),
      };
    }
    case 'acknowledgement_refused': {
      const reference = shortReference(alert.details.booking_id);
      const received = formatUkTimeLong(new Date(alert.details.received_at));
      return {
        subject: `Phone the visitor of request ${reference}: their e-mail address refused our confirmation`,
        text: [
          `The confirmation to request ${reference}, received ${received}, was refused by the visitor's mail server: the address may be mistyped, or no longer exist.`,
          '',
          `Phone them instead; the booking e-mail with reference ${reference} has the number. A reply by e-mail to that address would most likely be refused too.`,
          '',
          'Their mail server answered:',
          `  ${alert.details.smtp_reply}`,
          '',
        ].join('\n'),
      };
    }
  }
}

/** The longest mail server reply kept in an alert. */
const maxSmtpReplyLength = 300;

/**
 * Leaves the practice an alert that the acknowledgement of `bookingId` was
 * refused; `refusedAddress` is taken out of the server's reply, which often
 * quotes it.
 */
export async function recordAcknowledgementRefused(
  db: Queryable,
  refusal: { bookingId: string; receivedAt: Date; smtpReply: string; refusedAddress: string },
): Promise<void> {
  const reply = refusal.smtpReply
    .replace(
      new RegExp(`<?${escapeRegExp(refusal.refusedAddress)}>?`, 'gi'),
      "<the visitor's address>",
    )
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, maxSmtpReplyLength);
  const details: AcknowledgementRefusedDetails = {
    booking_id: refusal.bookingId,
    received_at: refusal.receivedAt.toISOString(),
    smtp_reply: reply,
  };
  await db.query(
    `insert into app_private.messages (kind, details) values ('acknowledgement_refused', $1::jsonb)`,
    [JSON.stringify(details)],
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** An alert claimed from the queue for sending. */
type ClaimedAlert = PracticeAlert & { message: ClaimedMessage };

/** Why a `notification_failing` alert was settled without being sent. */
export const allDeliveredNote =
  'Not sent: every notification it reported got through before it could be sent.';

function alertOf(message: ClaimedMessage): ClaimedAlert {
  const { id, createdAt, details } = message;
  const claimed = { id, createdAt, message };
  if (message.kind === 'acknowledgement_refused') {
    const refused = details as Partial<AcknowledgementRefusedDetails> | null;
    return {
      ...claimed,
      kind: message.kind,
      details: {
        booking_id: refused?.booking_id ?? '',
        received_at: refused?.received_at ?? createdAt.toISOString(),
        smtp_reply: refused?.smtp_reply ?? 'no reply recorded',
      },
    };
  }
  if (message.kind === 'no_client_address') {
    return { ...claimed, kind: message.kind, details: null };
  }
  if (message.kind === 'notification_failing') {
    return {
      ...claimed,
      kind: message.kind,
      details: (details as FailingNotificationsDetails | null) ?? {
        after_minutes: 0,
        notifications: [],
      },
    };
  }
  const threshold = (details as Partial<FloodDetails> | null)?.threshold;
  return {
    ...claimed,
    kind: 'flood',
    details: typeof threshold === 'number' ? { threshold } : null,
  };
}

export type AlertStore = ReturnType<typeof createAlertStore>;

export function createAlertStore(db: Database) {
  const queue = createMessageQueue(db);
  return {
    /**
     * Claims the oldest alert due for sending for `leaseMs`; undefined when none
     * is waiting. It is settled, or given back, through the queue (its `message`).
     */
    async claimNext(leaseMs: number): Promise<ClaimedAlert | undefined> {
      const message = await queue.claimNext(alertKinds, leaseMs);
      return message && alertOf(message);
    },
    /**
     * A claimed alert as it stands now: a `notification_failing` alert without
     * the notifications that have got through (or whose request was deleted)
     * since it was written, and the others with their attempts, last error and
     * missing channels of now. Undefined when none is left: the alert is then
     * settled `withdrawn`, with the reason in its last_error.
     */
    async withoutDelivered(alert: ClaimedAlert): Promise<ClaimedAlert | undefined> {
      if (alert.kind !== 'notification_failing') return alert;
      const reported = alert.details.notifications;
      const { rows } = await db.query<Omit<FailingNotificationDetail, 'received_at' | 'unsent'>>(
        `select booking_id::text as booking_id, attempts, last_error, ${sentFlagsSql()}
           from app_private.messages
          where kind = 'notification' and done_at is null
            and booking_id in (select value::uuid from jsonb_array_elements_text($1::jsonb))`,
        [JSON.stringify(reported.map((entry) => entry.booking_id))],
      );
      const now = new Map(rows.map((row) => [row.booking_id, row]));
      // Each still failing as it stands now: its attempts, its last error, the channels still missing it.
      const notifications = reported.flatMap((entry) => {
        const row = now.get(entry.booking_id);
        if (!row) return [];
        const sent = sentChannels(row);
        const unsent = entry.unsent.filter((name) => !sent.has(name));
        if (unsent.length === 0) return [];
        return [
          {
            ...entry,
            attempts: Number(row.attempts),
            last_error: row.last_error ?? entry.last_error,
            unsent,
          },
        ];
      });
      if (notifications.length > 0)
        return { ...alert, details: { ...alert.details, notifications } };
      await queue.settle(alert.message, 'withdrawn', { note: allDeliveredNote });
      return undefined;
    },
    /**
     * Adds one `notification_failing` alert for the notifications whose request
     * arrived more than `afterMs` ago and whose last attempt failed, each
     * reported once; `channels` are the configured ones. Returns how many.
     */
    async reportFailing(afterMs: number, channels: readonly ChannelName[]): Promise<number> {
      return db.transaction(async (tx) => {
        // A row being reported by another notifier is locked: this update
        // waits, then finds it reported and leaves it.
        const { rows } = await tx.query<Omit<FailingNotificationDetail, 'unsent'>>(
          `update app_private.messages as n
              set failure_reported_at = now()
             from public.bookings as b
            where b.id = n.booking_id and n.kind = 'notification'
              and n.done_at is null
              and n.last_error is not null
              and n.failure_reported_at is null
              and b.created_at <= now() - make_interval(secs => $1)
          returning n.booking_id::text as booking_id,
                    to_json(b.created_at) #>> '{}' as received_at,
                    n.attempts, n.last_error, ${sentFlagsSql('n')}`,
          [afterMs / 1000],
        );
        rows.sort((a, b) => a.received_at.localeCompare(b.received_at));
        // One that every channel configured now has taken (the failing one since
        // unset) is settled at its next attempt, and has not failed to reach anyone.
        const notifications = rows
          .map((row) => ({
            booking_id: row.booking_id,
            received_at: new Date(row.received_at).toISOString(),
            attempts: Number(row.attempts),
            last_error: row.last_error,
            unsent: channels.filter((name) => !sentChannels(row).has(name)),
          }))
          .filter((notification) => notification.unsent.length > 0);
        if (notifications.length === 0) return 0;
        const details: FailingNotificationsDetails = {
          after_minutes: Math.round(afterMs / 60_000),
          notifications,
        };
        await tx.query(
          `insert into app_private.messages (kind, details) values ('notification_failing', $1::jsonb)`,
          [JSON.stringify(details)],
        );
        return notifications.length;
      });
    },
  };
}
