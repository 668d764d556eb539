import type { AnswerMarkedBy } from '../db/booking-answers.ts';
import type { Queryable } from '../db/database.ts';
import { sentChannels, sentFlagsSql, type ChannelName } from './channel-names.ts';
import {
  noticeColumnsSql,
  noticeFromRow,
  noticeWithAnswerTokenSql,
  type BookingNotice,
  type BookingNoticeRow,
} from './booking-notice.ts';

/**
 * Whether the practice has been told of each booking request, read from the
 * notifications in the one queue (app_private.messages, kind `notification`),
 * for `npm run bookings` and the daily summary. Runs as the connection's user,
 * which owns the queue.
 */

/**
 * - `sent`: every configured channel took it;
 * - `pending`: not sent yet, and no attempt has failed (just arrived, or no
 *   channel configured);
 * - `failing`: the last attempt failed; it is retried (a channel that took it
 *   before is in `reachedBy`: the practice was told, another channel failed);
 * - `none`: stored before the notifications existed, never notified.
 */
export type NotificationState = 'sent' | 'pending' | 'failing' | 'none';

export interface NotificationStatus {
  state: NotificationState;
  /** Attempts so far. */
  attempts: number;
  /** Why the last attempt failed, for `failing`. */
  lastError: string | null;
  /** The channels that have taken it (all of them when `sent`). */
  reachedBy: ChannelName[];
}

/** A booking request whose notification keeps failing. */
export interface FailingNotification extends Pick<NotificationStatus, 'attempts' | 'reachedBy'> {
  bookingId: string;
  /** When the request arrived. */
  createdAt: Date;
  lastError: string;
}

/** A booking request with the state of its notification. */
export interface NotifiedRequest {
  booking: BookingNotice;
  notification: NotificationStatus;
}

/**
 * A request received in a period and whether it was answered, for the week's
 * record in the daily summary.
 */
export interface RequestReply {
  bookingId: string;
  /** When the request arrived. */
  createdAt: Date;
  /** When it was marked answered; null while it waits. */
  answeredAt: Date | null;
  /** Who marked it; null while it waits. */
  markedBy: AnswerMarkedBy | null;
}

/** The state as SQL, over the notification `n` (null when there is none). */
const stateSql = `case
    when n.booking_id is null then 'none'
    when n.done_at is not null then 'sent'
    when n.last_error is not null then 'failing'
    else 'pending'
  end`;

/** The notification `n` of the request `b`, to join. */
const notificationOfRequest = `app_private.messages n
  on n.kind = 'notification' and n.booking_id = b.id`;

/** The columns of a `StateRow`, over the notification `n`. */
const stateColumnsSql = `${stateSql} as state, n.attempts, n.last_error, ${sentFlagsSql('n')}`;

interface StateRow {
  booking_id: string;
  state: NotificationState;
  attempts: number | null;
  last_error: string | null;
}

function statusOf(row: StateRow): NotificationStatus {
  return {
    state: row.state,
    attempts: Number(row.attempts ?? 0),
    lastError: row.state === 'failing' ? row.last_error : null,
    reachedBy: [...sentChannels(row)],
  };
}

export function createNotificationStates(db: Queryable) {
  return {
    /** The state of the notification of each request received at or after `since`, by booking id. */
    async receivedSince(since: Date) {
      const { rows } = await db.query<StateRow>(
        `select b.id::text as booking_id, ${stateColumnsSql}
           from public.bookings b
           left join ${notificationOfRequest}
          where b.created_at >= $1`,
        [since.toISOString()],
      );
      return new Map(rows.map((row) => [row.booking_id, statusOf(row)]));
    },

    /** Every notification whose last attempt failed, oldest request first. */
    async failing(): Promise<FailingNotification[]> {
      const { rows } = await db.query<{
        booking_id: string;
        created_at: string;
        attempts: number;
        last_error: string;
      }>(
        `select b.id::text as booking_id, to_json(b.created_at) #>> '{}' as created_at,
                n.attempts, n.last_error, ${sentFlagsSql('n')}
           from public.bookings b
           join ${notificationOfRequest}
          where n.done_at is null and n.last_error is not null
          order by b.created_at, b.id`,
      );
      return rows.map((row) => ({
        bookingId: row.booking_id,
        createdAt: new Date(row.created_at),
        attempts: Number(row.attempts),
        lastError: row.last_error,
        reachedBy: [...sentChannels(row)],
      }));
    },

    /** The requests that arrived in `[from, to)`, oldest first, with their notifications. */
    async requestsBetween(from: Date, to: Date): Promise<NotifiedRequest[]> {
      const { rows } = await db.query<StateRow & BookingNoticeRow>(
        `select ${noticeColumnsSql('b')}, ${stateColumnsSql}
           from public.bookings b
           left join ${notificationOfRequest}
          where b.created_at >= $1 and b.created_at < $2
          order by b.created_at, b.id`,
        [from.toISOString(), to.toISOString()],
      );
      return rows.map((row) => ({
        booking: noticeFromRow(row),
        notification: statusOf(row),
      }));
    },

    // Both take the clock as a parameter rather than the database's now(),
    // so that the daily run at a given instant (or a test's faked clock)
    // reads what was waiting at that instant.
    /**
     * Every request waiting for a reply at `now` (no answer recorded by then),
     * oldest first, however old, each with the token of its answer link.
     * Answers recorded after `now` do not count, so that a run at a given
     * clock reads the answers as they stood then.
     */
    async waiting(now: Date) {
      // With the token of each one's "Mark as answered" link, for the summary's buttons.
      const { rows } = await db.query<BookingNoticeRow>(
        `select ${noticeWithAnswerTokenSql('b')}
           from public.bookings b
          where b.created_at < $1
            and not exists (
              select 1 from app_private.booking_answers a
               where a.booking_id = b.id and a.answered_at <= $1)
          order by b.created_at, b.id`,
        [now.toISOString()],
      );
      return rows.map(noticeFromRow);
    },

    /**
     * The requests that arrived in `[from, to)`, oldest first, each with its
     * answer if one was recorded by `to`.
     */
    async repliesBetween(from: Date, to: Date): Promise<RequestReply[]> {
      const { rows } = await db.query<{
        booking_id: string;
        created_at: string;
        answered_at: string | null;
        marked_by: AnswerMarkedBy | null;
      }>(
        `select b.id::text as booking_id, to_json(b.created_at) #>> '{}' as created_at,
                to_json(a.answered_at) #>> '{}' as answered_at, a.marked_by
           from public.bookings b
           left join app_private.booking_answers a
             on a.booking_id = b.id and a.answered_at <= $2
          where b.created_at >= $1 and b.created_at < $2
          order by b.created_at, b.id`,
        [from.toISOString(), to.toISOString()],
      );
      return rows.map((row) => ({
        bookingId: row.booking_id,
        createdAt: new Date(row.created_at),
        answeredAt: row.answered_at === null ? null : new Date(row.answered_at),
        markedBy: row.marked_by,
      }));
    },
  };
}
