import { callApiFunction } from './api-function.ts';
import type { Database } from './database.ts';

/**
 * Whether the practice has answered each booking request
 * (app_private.booking_answers, migration 20261201000200_notifications.sql):
 * a request without a row there is waiting. The link in the notification
 * e-mail marks one through public.mark_booking_answered(token), run here as
 * the caller's role the way PostgREST runs a function, and its page's "Undo"
 * takes the mark back through public.unmark_booking_answered(token);
 * `npx hijama answer` marks one, and `--undo` unmarks it, as the tables' owner.
 */

/** How the practice answered, as the table's check constraint allows it. */
export const answerChannels = ['email', 'instagram', 'phone', 'whatsapp', 'sms', 'other'] as const;

export type AnswerChannel = (typeof answerChannels)[number];

export function isAnswerChannel(value: string): value is AnswerChannel {
  return (answerChannels as readonly string[]).includes(value);
}

/** Who marked a request answered: the link in the e-mail, or the command. */
export type AnswerMarkedBy = 'link' | 'command' | 'restore';

/** A request's answer. */
export interface BookingAnswer {
  answeredAt: Date;
  channel: AnswerChannel | null;
  markedBy: AnswerMarkedBy;
}

/** What public.mark_booking_answered answers: the short reference and when it was answered. */
export interface AnswerMark {
  reference: string;
  /** ISO 8601, as PostgreSQL's JSON writes it. */
  answered_at: string;
}

/** What public.unmark_booking_answered answers: the short reference, and whether it had been marked. */
export interface AnswerUnmark {
  reference: string;
  was_answered: boolean;
}

/** What marking a request answered by its id did. */
export type MarkResult =
  | { outcome: 'marked'; answer: BookingAnswer }
  /** It was answered before; nothing changed. */
  | { outcome: 'already answered'; answer: BookingAnswer }
  /** No request has that id (deleted meanwhile, or never stored). */
  | { outcome: 'not found' };

/** What taking back a request's mark by its id did. */
export type UnmarkResult =
  /** Its answer, now taken back: it waits again. */
  | { outcome: 'unmarked'; answer: BookingAnswer }
  /** It was not marked; nothing changed. */
  | { outcome: 'not answered' }
  | { outcome: 'not found' };

interface AnswerRow {
  booking_id: string;
  answered_at: string;
  channel: AnswerChannel | null;
  marked_by: AnswerMarkedBy;
}

// As text in JSON's ISO 8601 form, so that both drivers hand back the same string.
const answerColumns = (table: string) =>
  `${table}.booking_id::text as booking_id, to_json(${table}.answered_at) #>> '{}' as answered_at,
   ${table}.channel, ${table}.marked_by`;

function answerOf(row: AnswerRow): BookingAnswer {
  return { answeredAt: new Date(row.answered_at), channel: row.channel, markedBy: row.marked_by };
}

export type BookingAnswers = ReturnType<typeof createBookingAnswers>;

export function createBookingAnswers(db: Database) {
  return {
    /**
     * Calls public.mark_booking_answered(token) as `anon`, as the page does, so
     * that the function's grants decide. With `readOnly` (an RPC called with GET, as
     * PostgREST runs it) the transaction is read only: a genuine token is then
     * refused by the database (25006), and nothing changes.
     */
    markByToken: (token: string | null, options: { readOnly?: boolean } = {}) =>
      callApiFunction<AnswerMark>(db, 'public.mark_booking_answered($1)', [token], options),

    /** Calls public.unmark_booking_answered(token), as markByToken calls its counterpart. */
    unmarkByToken: (token: string | null, options: { readOnly?: boolean } = {}) =>
      callApiFunction<AnswerUnmark>(db, 'public.unmark_booking_answered($1)', [token], options),

    /** The answers of the requests received at or after `since`, by booking id. Owner only. */
    async answeredSince(since: Date) {
      const { rows } = await db.query<AnswerRow>(
        `select ${answerColumns('a')}
           from app_private.booking_answers a
           join public.bookings b on b.id = a.booking_id
          where b.created_at >= $1`,
        [since.toISOString()],
      );
      return new Map(rows.map((row) => [row.booking_id, answerOf(row)]));
    },

    /** Marks the request `bookingId` answered by the command, unless it already is. Owner only. */
    markById: (bookingId: string, channel: AnswerChannel | null) =>
      db.transaction(async (tx): Promise<MarkResult> => {
        // Inserted only for a stored request: a deleted one is "not found", not a foreign-key error.
        const inserted = await tx.query<AnswerRow>(
          `insert into app_private.booking_answers (booking_id, channel, marked_by)
             select b.id, $2, 'command' from public.bookings b where b.id = $1::uuid
             on conflict (booking_id) do nothing
             returning ${answerColumns('booking_answers')}`,
          [bookingId, channel],
        );
        if (inserted.rows[0]) return { outcome: 'marked', answer: answerOf(inserted.rows[0]) };
        const existing = await tx.query<AnswerRow>(
          `select ${answerColumns('a')} from app_private.booking_answers a where a.booking_id = $1::uuid`,
          [bookingId],
        );
        return existing.rows[0]
          ? { outcome: 'already answered', answer: answerOf(existing.rows[0]) }
          : { outcome: 'not found' };
      }),

    /** Takes back the mark of the request `bookingId`, so that it waits again. Owner only. */
    unmarkById: (bookingId: string) =>
      db.transaction(async (tx): Promise<UnmarkResult> => {
        const removed = await tx.query<AnswerRow>(
          `delete from app_private.booking_answers a where a.booking_id = $1::uuid
             returning ${answerColumns('a')}`,
          [bookingId],
        );
        if (removed.rows[0]) return { outcome: 'unmarked', answer: answerOf(removed.rows[0]) };
        const stored = await tx.query('select 1 from public.bookings b where b.id = $1::uuid', [
          bookingId,
        ]);
        return stored.rows.length > 0 ? { outcome: 'not answered' } : { outcome: 'not found' };
      }),
  };
}
