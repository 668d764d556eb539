import type { Queryable } from '../db/database.ts';
import { noticeFromRow, type BookingNotice, type BookingNoticeRow } from './booking-notice.ts';

/**
 * Whether the practice has been told of each booking request, read from the
 * outbox (app_private.booking_notifications), for `npm run bookings` and the
 * daily summary. Runs as the connection's user, which owns the outbox.
 */

/**
 * - `sent`: every configured channel took it;
 * - `pending`: not sent yet, and no attempt has failed (just arrived, or no
 *   channel configured);
 * - `failing`: the last attempt failed; it is retried;
 * - `none`: stored before the notifications existed, never notified.
 */
export type NotificationState = 'sent' | 'pending' | 'failing' | 'none';

export interface NotificationStatus {
  state: NotificationState;
  /** Attempts so far. */
  attempts: number;
  /** Why the last attempt failed, for `failing`. */
  lastError: string | null;
}

/** A booking request whose notification keeps failing. */
export interface FailingNotification {
  bookingId: string;
  /** When the request arrived. */
  createdAt: Date;
  attempts: number;
  lastError: string;
}

/** A booking request with the state of its notification. */
export interface NotifiedRequest {
  booking: BookingNotice;
  notification: NotificationStatus;
}

export interface NotificationStates {
  /** The state of the notification of each request received at or after `since`, by booking id. */
  receivedSince(since: Date): Promise<Map<string, NotificationStatus>>;
  /** Every notification whose last attempt failed, oldest request first. */
  failing(): Promise<FailingNotification[]>;
  /** The requests that arrived in `[from, to)`, oldest first, with their notifications. */
  requestsBetween(from: Date, to: Date): Promise<NotifiedRequest[]>;
}

/** The state as SQL, over the outbox row `n` (null when there is none). */
const stateSql = `case
    when n.booking_id is null then 'none'
    when n.completed_at is not null then 'sent'
    when n.last_error is not null then 'failing'
    else 'pending'
  end`;

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
  };
}

export function createNotificationStates(db: Queryable): NotificationStates {
  return {
    async receivedSince(since) {
      const { rows } = await db.query<StateRow>(
        `select b.id::text as booking_id, ${stateSql} as state, n.attempts, n.last_error
           from public.bookings b
           left join app_private.booking_notifications n on n.booking_id = b.id
          where b.created_at >= $1`,
        [since.toISOString()],
      );
      return new Map(rows.map((row) => [row.booking_id, statusOf(row)]));
    },

    async failing() {
      const { rows } = await db.query<{
        booking_id: string;
        created_at: string;
        attempts: number;
        last_error: string;
      }>(
        `select b.id::text as booking_id, to_json(b.created_at) #>> '{}' as created_at,
                n.attempts, n.last_error
           from app_private.booking_notifications n
           join public.bookings b on b.id = n.booking_id
          where n.completed_at is null and n.last_error is not null
          order by b.created_at, b.id`,
      );
      return rows.map((row) => ({
        bookingId: row.booking_id,
        createdAt: new Date(row.created_at),
        attempts: Number(row.attempts),
        lastError: row.last_error,
      }));
    },

    async requestsBetween(from, to) {
      const { rows } = await db.query<StateRow & BookingNoticeRow>(
        `select b.id::text as booking_id, to_json(b.created_at) #>> '{}' as created_at,
                b.full_name, b.phone, b.email, b.instagram,
                ${stateSql} as state, n.attempts, n.last_error
           from public.bookings b
           left join app_private.booking_notifications n on n.booking_id = b.id
          where b.created_at >= $1 and b.created_at < $2
          order by b.created_at, b.id`,
        [from.toISOString(), to.toISOString()],
      );
      return rows.map((row) => ({
        booking: noticeFromRow(row),
        notification: statusOf(row),
      }));
    },
  };
}
