import type { Database } from '../db/database.ts';
import {
  noticeColumnsSql,
  noticeFromRow,
  type BookingNotice,
  type BookingNoticeRow,
} from './booking-notice.ts';
import { sentAtColumn, sentChannels, sentFlagsSql, type ChannelName } from './channel-names.ts';

/**
 * app_private.booking_notifications, the pending notifications that a trigger
 * adds with every booking (supabase/migrations). A notifier claims one due
 * notification at a time for a lease; `for update skip locked` lets several
 * notifiers share one database without taking the same row, and the claim id
 * makes every later write of a notifier whose lease has expired a no-op.
 * Queries run as the connection's user, which owns the outbox; the API roles
 * have no access to it.
 */

export interface ClaimedNotification {
  claim: string;
  /** Attempts so far, this one included. */
  attempts: number;
  /** Channels that already succeeded in an earlier attempt. */
  sent: Set<ChannelName>;
  booking: BookingNotice;
}

export interface Outbox {
  /**
   * Claims the notification due longest, or returns undefined when none is due.
   * A request of a flood is never claimed here: it waits for the digest (flood-digests.ts).
   */
  claimNext(claim: string, leaseMs: number): Promise<ClaimedNotification | undefined>;
  /** Records one channel's success; false when the claim was lost (lease expired, booking deleted). */
  markSent(notification: ClaimedNotification, channel: ChannelName): Promise<boolean>;
  /** Every configured channel succeeded. */
  complete(notification: ClaimedNotification): Promise<boolean>;
  /** Gives the notification back, due again after `delayMs`. */
  retryLater(notification: ClaimedNotification, delayMs: number, error: string): Promise<boolean>;
  /** Gives the notification back, due at once, without counting the attempt. */
  release(notification: ClaimedNotification): Promise<void>;
  /**
   * Ends every lease. Only for a notifier that knows no other one can be
   * running: the embedded database, locked by this process.
   */
  releaseAllClaims(): Promise<number>;
  /**
   * Makes every failing notification due now; returns how many. At the
   * server's start the settings may have been corrected (a new SMTP password):
   * what waits is then sent at once, not after its backoff (up to
   * NOTIFY_RETRY_MAX_SECONDS).
   */
  retryFailingNow(): Promise<number>;
  /** Notifications not yet sent on every channel: waiting for a retry or a flood digest, or being sent now. */
  countPending(): Promise<number>;
  /** Whether the outbox table exists (its migration has been applied). */
  exists(): Promise<boolean>;
}

const table = 'app_private.booking_notifications';

/** The longest last_error kept (the table's check constraint). */
const maxErrorLength = 1000;

interface ClaimedRow extends BookingNoticeRow {
  attempts: number;
}

export function createOutbox(db: Database): Outbox {
  const updateClaimed = async (
    notification: ClaimedNotification,
    assignments: string,
    extra: readonly unknown[] = [],
  ) => {
    const { rows } = await db.query(
      `update ${table} set ${assignments} where booking_id = $1 and claimed_by = $2 returning 1`,
      [notification.booking.id, notification.claim, ...extra],
    );
    return rows.length > 0;
  };

  return {
    async claimNext(claim, leaseMs) {
      const { rows } = await db.query<ClaimedRow>(
        `with due as materialized (
           select booking_id from ${table}
           where completed_at is null and next_attempt_at <= now() and not digest
           order by next_attempt_at, booking_id
           limit 1
           for update skip locked
         )
         update ${table} as n
         set claimed_by = $1,
             attempts = n.attempts + 1,
             next_attempt_at = now() + make_interval(secs => $2)
         from due, public.bookings as b
         where n.booking_id = due.booking_id and b.id = n.booking_id
         returning ${noticeColumnsSql('b')},
                   n.attempts,
                   ${sentFlagsSql('n')},
                   -- The e-mail's "Mark as answered" link; signed here, where the key is.
                   app_private.answer_token(b.id) as answer_token`,
        [claim, leaseMs / 1000],
      );
      const row = rows[0];
      if (!row) return undefined;
      return {
        claim,
        attempts: Number(row.attempts),
        sent: sentChannels(row),
        booking: noticeFromRow(row),
      };
    },

    markSent: (notification, channel) =>
      updateClaimed(notification, `${sentAtColumn(channel)} = now()`),

    complete: (notification) =>
      updateClaimed(notification, 'completed_at = now(), claimed_by = null, last_error = null'),

    retryLater: (notification, delayMs, error) =>
      updateClaimed(
        notification,
        'claimed_by = null, next_attempt_at = now() + make_interval(secs => $3), last_error = $4',
        [delayMs / 1000, error.slice(0, maxErrorLength)],
      ),

    async release(notification) {
      await updateClaimed(
        notification,
        'claimed_by = null, next_attempt_at = now(), attempts = greatest(attempts - 1, 0)',
      );
    },

    async retryFailingNow() {
      const { rows } = await db.query(
        `update ${table} set next_attempt_at = now()
         where completed_at is null and claimed_by is null and last_error is not null
           and next_attempt_at > now() returning 1`,
      );
      return rows.length;
    },
    async releaseAllClaims() {
      const { rows } = await db.query(
        `update ${table} set claimed_by = null, next_attempt_at = now()
         where claimed_by is not null and completed_at is null returning 1`,
      );
      return rows.length;
    },

    async countPending() {
      const { rows } = await db.query<{ pending: number }>(
        `select count(*)::integer as pending from ${table} where completed_at is null`,
      );
      return rows[0]?.pending ?? 0;
    },

    async exists() {
      const { rows } = await db.query<{ found: boolean }>(
        `select to_regclass('${table}') is not null as found`,
      );
      return rows[0]?.found === true;
    },
  };
}
