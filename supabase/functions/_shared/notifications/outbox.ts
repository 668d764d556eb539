import type { Database } from '../db/database.ts';
import {
  noticeFromRow,
  noticeWithAnswerTokenSql,
  type BookingNotice,
  type BookingNoticeRow,
} from './booking-notice.ts';
import { createMessageQueue, type ClaimedMessage } from './message-queue.ts';

/**
 * The one queue of messages (message-queue.ts) as the notifier uses it, with
 * the notifications of booking requests: a message of kind `notification`,
 * which a trigger adds with every booking (supabase/migrations). A notifier
 * claims one due notification at a time for a lease, and records each
 * channel, the end and the retries as for every message. Queries run as the
 * connection's user, which owns the queue; the API roles have no access to it.
 */

interface ClaimedNotification extends ClaimedMessage {
  booking: BookingNotice;
}

const pendingNotifications = `app_private.messages where kind = 'notification' and done_at is null`;

export type Outbox = ReturnType<typeof createOutbox>;

export function createOutbox(db: Database) {
  const queue = createMessageQueue(db);
  return {
    ...queue,
    /**
     * Claims the notification due longest, or returns undefined when none is due.
     * A request of a flood is never claimed here: it waits for the digest (flood-digests.ts).
     */
    async claimNotification(leaseMs: number): Promise<ClaimedNotification | undefined> {
      const message = await queue.claimNext(['notification'], leaseMs);
      if (!message) return undefined;
      // With the token of the e-mail's "Mark as answered" link.
      const { rows } = await db.query<BookingNoticeRow>(
        `select ${noticeWithAnswerTokenSql('b')} from public.bookings b where b.id = $1`,
        [message.bookingId],
      );
      const row = rows[0];
      // Deleted between the claim and this read: its message went with it.
      if (!row) return undefined;
      return { ...message, booking: noticeFromRow(row) };
    },

    /**
     * Makes every failing notification due now; returns how many. At the
     * server's start the settings may have been corrected (a new SMTP password):
     * what waits is then sent at once, not after its backoff (up to
     * NOTIFY_RETRY_MAX_SECONDS).
     */
    async retryFailingNow() {
      const { rows } = await db.query(
        `update app_private.messages set next_attempt_at = now()
          where kind = 'notification' and done_at is null and claimed_by is null
            and last_error is not null and next_attempt_at > now()
          returning 1`,
      );
      return rows.length;
    },

    /** Notifications not yet sent on every channel: waiting for a retry or a flood digest, or being sent now. */
    async countPending() {
      const { rows } = await db.query<{ pending: number }>(
        `select count(*)::integer as pending from ${pendingNotifications}`,
      );
      return rows[0]?.pending ?? 0;
    },

    /** Whether the queue exists (its migration has been applied). */
    async exists() {
      const { rows } = await db.query<{ found: boolean }>(
        `select to_regclass('app_private.messages') is not null as found`,
      );
      return rows[0]?.found === true;
    },
  };
}
