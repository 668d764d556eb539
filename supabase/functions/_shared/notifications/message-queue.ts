import type { Queryable } from '../db/database.ts';
import { sentAtColumn, sentChannels, sentFlagsSql, type ChannelName } from './channel-names.ts';

/**
 * app_private.messages (20261203000000_one_message_queue.sql), the one queue of
 * everything the notifier sends. A notifier claims a due message for a lease;
 * `for update skip locked` lets several notifiers share one database without
 * taking the same row, and the claim id makes every later write of a notifier
 * whose lease has expired a no-op. Every kind is claimed, retried, given back
 * and settled here. Queries run as the connection's user, which owns the
 * table; the API roles have no access to it.
 */

/** The alerts for the practice about the booking form and its notifications (practice-alerts.ts). */
export const alertKinds = [
  'flood',
  'no_client_address',
  'notification_failing',
  'acknowledgement_refused',
] as const;

type AlertKind = (typeof alertKinds)[number];

export const isAlertKind = (kind: unknown): kind is AlertKind =>
  alertKinds.some((alert) => alert === kind);

export type MessageKind =
  AlertKind | 'daily_run' | 'notification' | 'flood_digest' | 'reminder' | 'acknowledgement';

/**
 * How a message was settled: `sent`; `done` with nothing to send; `withdrawn`,
 * no longer true when it could go; and for an acknowledgement `limited`,
 * `refused`, `expired` or `restored` (the table's comments say when).
 */
type MessageOutcome =
  'sent' | 'done' | 'withdrawn' | 'limited' | 'refused' | 'expired' | 'restored';

/**
 * What a notifier holds: every message it claimed under one claim id (one, or
 * for a reminder the requests it reminds of together).
 */
export interface Held {
  claim: string;
}

export interface ClaimedMessage extends Held {
  id: string;
  kind: MessageKind;
  /** Attempts so far, this one included. */
  attempts: number;
  createdAt: Date;
  /** The request of a notification, reminder or acknowledgement. */
  bookingId: string | null;
  /** The UK day of a daily run. */
  day: string | null;
  /** An alert's details as stored. */
  details: unknown;
  /** Channels that already took it in an earlier attempt. */
  sent: Set<ChannelName>;
}

const table = 'app_private.messages';

/** The longest last_error kept (the table's check constraint). */
const maxErrorLength = 1000;

interface MessageRow {
  id: string;
  kind: MessageKind;
  attempts: number;
  created_at: string;
  booking_id: string | null;
  day: string | null;
  details: unknown;
}

/**
 * Writes to what a notifier holds; each is false (or 0) when the claim was lost
 * (its lease expired and another notifier took it, or the request was deleted).
 * `at` is the notifier's clock where the rules are kept by it (reminders and
 * acknowledgements, whose tests run at any date); else the database's.
 */
export type MessageQueue = ReturnType<typeof createMessageQueue>;

export function createMessageQueue(db: Queryable) {
  /** How many messages of the claim were updated. */
  const updateHeld = async (held: Held, assignments: string, extra: readonly unknown[] = []) => {
    const { rows } = await db.query(
      `update ${table} set ${assignments} where claimed_by = $1 returning 1`,
      [held.claim, ...extra],
    );
    return rows.length;
  };
  const updateClaimed = async (held: Held, assignments: string, extra: readonly unknown[] = []) =>
    (await updateHeld(held, assignments, extra)) > 0;

  return {
    /**
     * Claims the message of one of `kinds` due longest (of `day` only, when
     * given), or returns undefined when none is due. A request's notification
     * bound for the flood digest is never claimed on its own.
     */
    async claimNext(
      kinds: readonly MessageKind[],
      leaseMs: number,
      options: { day?: string } = {},
    ): Promise<ClaimedMessage | undefined> {
      const claim = crypto.randomUUID();
      const { rows } = await db.query<MessageRow>(
        `with due as materialized (
           select id from ${table}
            where kind = any($1::text[]) and done_at is null and next_attempt_at <= now()
              and not in_digest and ($4::date is null or day = $4::date)
            order by next_attempt_at, id
            limit 1
            for update skip locked
         )
         update ${table} as m
            set claimed_by = $2, attempts = m.attempts + 1,
                next_attempt_at = now() + make_interval(secs => $3)
           from due
          where m.id = due.id
         returning m.id::text as id, m.kind, m.attempts,
                   to_json(m.created_at) #>> '{}' as created_at,
                   m.booking_id::text as booking_id, m.day::text as day,
                   m.details, ${sentFlagsSql('m')}`,
        [kinds, claim, leaseMs / 1000, options.day ?? null],
      );
      const row = rows[0];
      if (!row) return undefined;
      return {
        id: row.id,
        kind: row.kind,
        claim,
        attempts: Number(row.attempts),
        createdAt: new Date(row.created_at),
        bookingId: row.booking_id,
        day: row.day,
        details: typeof row.details === 'string' ? JSON.parse(row.details) : row.details,
        sent: sentChannels(row),
      };
    },

    /** Records one channel's success. */
    markSent: (held: Held, channel: ChannelName) =>
      updateClaimed(held, `${sentAtColumn(channel)} = now()`),

    /**
     * Settles what is held for good; answers how many messages that was. Their
     * last error stays, as the record of what failed before, unless `note`
     * replaces it (null clears it).
     */
    settle: (
      held: Held,
      outcome: MessageOutcome,
      { note, at }: { note?: string | null; at?: Date } = {},
    ) =>
      updateHeld(
        held,
        `done_at = coalesce($3::timestamptz, now()), outcome = $2, claimed_by = null,
         last_error = case when $4 then left($5, ${maxErrorLength}) else last_error end`,
        [outcome, at?.toISOString() ?? null, note !== undefined, note ?? null],
      ),

    /** Gives it back, due again `delayMs` after `at`, with the reason it failed. */
    retryLater: (held: Held, delayMs: number, error: string, at?: Date) =>
      updateClaimed(
        held,
        `claimed_by = null,
         next_attempt_at = coalesce($3::timestamptz, now()) + make_interval(secs => $2),
         last_error = left($4, ${maxErrorLength})`,
        [delayMs / 1000, at?.toISOString() ?? null, error],
      ),

    /** Gives it back, due at once, without counting the attempt. */
    async release(held: Held) {
      await updateClaimed(
        held,
        'claimed_by = null, next_attempt_at = now(), attempts = greatest(attempts - 1, 0)',
      );
    },

    /**
     * Ends every lease. Only for a notifier that knows no other one can be
     * running: the embedded database, locked by this process.
     */
    async releaseAllClaims() {
      const { rows } = await db.query(
        `update ${table} set claimed_by = null, next_attempt_at = now()
          where claimed_by is not null and done_at is null
          returning 1`,
      );
      return rows.length;
    },
  };
}
