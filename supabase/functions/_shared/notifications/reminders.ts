import type { Database } from '../db/database.ts';
import {
  noticeFromRow,
  noticeWithAnswerTokenSql,
  replyWithinMs,
  type BookingNoticeRow,
} from './booking-notice.ts';
import { formatDelay, sendOnceToPractice, type NotifierTask } from './notifier.ts';
import { createMessageQueue } from './message-queue.ts';
import { plural } from './message-lists.ts';
import type { NotifyConfig } from './notify-config.ts';
import { composeReminder } from './reminder-message.ts';

/**
 * The reminders of waiting requests, chased before they are late: a
 * request with no answer recorded, NOTIFY_REMINDER_HOURS before its reply-by
 * time, is reminded once through every channel, together with the others due
 * by then, in at most one reminder every 15 minutes. A flood's requests are
 * never reminded: the flood digest and the daily summary carry them. The
 * database decides which requests are due and makes each reminded once
 * however many notifiers run (app_private.claim_due_reminders,
 * 20261202000200_flood_reminders.sql); this task sends them and records the
 * outcome.
 *
 * As with alerts, a reminder is done when one channel took it: the others'
 * failures are logged, not retried, since the practice has been reminded.
 * When no channel took it, it is given back and tried again `retryMs` later.
 */

interface ReminderTaskOptions extends Pick<NotifyConfig, 'remindBeforeReplyByMs' | 'siteUrl'> {
  db: Database;
  /** How long a reminder that no channel took waits before it is tried again. */
  retryMs: number;
}

/**
 * The most requests claimed for one reminder (it lists the first few and
 * counts the rest): more are reminded by the next one, 15 minutes later.
 */
const maxRequestsPerReminder = 1000;

/** The age at which a waiting request is due its reminder: never negative, whatever is configured. */
export function remindAfterMs(remindBeforeReplyByMs: number): number {
  return Math.max(0, replyWithinMs - remindBeforeReplyByMs);
}

export function createReminderTask(options: ReminderTaskOptions): NotifierTask {
  const { db, retryMs } = options;
  const remindAfter = remindAfterMs(options.remindBeforeReplyByMs);

  /**
   * Claims the reminders due at `now` and reads their requests, with the tokens
   * of their "Mark as answered" links, the first due first.
   */
  async function claimDue(claim: string, leaseMs: number, now: Date) {
    const { rows } = await db.query<BookingNoticeRow>(
      `select ${noticeWithAnswerTokenSql('b')}
         from app_private.claim_due_reminders(
                $1, make_interval(secs => $2), make_interval(secs => $3), $4, $5) as c
         join public.bookings as b on b.id = c.booking_id
        order by b.created_at, b.id`,
      [claim, leaseMs / 1000, remindAfter / 1000, maxRequestsPerReminder, now.toISOString()],
    );
    return rows.map(noticeFromRow);
  }

  const queue = createMessageQueue(db);

  return {
    name: 'reminders',
    async run({ channels, now, leaseMs, isStopping, log }) {
      if (channels.length === 0 || isStopping()) return;
      const claim = crypto.randomUUID();
      const requests = await claimDue(claim, leaseMs, now);
      if (requests.length === 0) return;
      const reminder = composeReminder(requests, now, options.siteUrl);
      const size = plural(requests.length, 'request');
      const what = `reminder ${reminder.id} (${size})`;
      const outcome = await sendOnceToPractice({
        channels,
        queue,
        held: { claim },
        retryMs,
        at: now,
        log,
        send: (channel) => channel.sendReminder(reminder),
        sent: (by) => `Reminded the practice of ${size} by ${by}.`,
        failed: (error) =>
          `The ${what} could not be sent: ${error}. Next attempt in ${formatDelay(retryMs)}.`,
        partly: (error) => `The ${what} did not go through every channel: ${error}.`,
      });
      // Fewer than claimed when a claim expired during the send.
      if (outcome.sent && outcome.settled < requests.length) {
        log.error(
          `The ${what} was sent, but ${requests.length - outcome.settled} of its claims had expired or its requests were deleted; another notifier may remind of them again.`,
        );
      }
    },
  };
}
