/**
 * What the answer page's buttons ended in, read from the API's answer: the
 * database's own refusals (supabase/migrations/20261201000200_notifications.sql,
 * 20261202000400_undo_and_delete.sql) by their PostgREST code, anything else
 * as a failure worth trying again.
 */
export type AnswerOutcome =
  | { kind: 'answered'; reference: string; answeredAt: Date }
  /** "Undo": the mark is taken back, the request waits again. */
  | { kind: 'unmarked'; reference: string }
  /** The token is not one the database signed: forged, cut short or for another request. */
  | { kind: 'invalid' }
  | { kind: 'expired' }
  /** The request was deleted since the e-mail was sent. */
  | { kind: 'not-stored' }
  /** No answer, or one that says nothing about the link: trying again may work. */
  | { kind: 'failed' };

/** The codes public.mark_booking_answered and public.unmark_booking_answered raise (PostgREST answers them with the status in their name). */
const refusals: Record<string, AnswerOutcome> = {
  PT403: { kind: 'invalid' },
  PT410: { kind: 'expired' },
  PT404: { kind: 'not-stored' },
};

/** The outcome of the function's HTTP answer: its status and its parsed JSON body. */
export function answerOutcome(status: number, body: unknown): AnswerOutcome {
  if (status === 200 && isMark(body)) {
    const answeredAt = new Date(body.answered_at);
    if (!Number.isNaN(answeredAt.getTime())) {
      return { kind: 'answered', reference: body.reference, answeredAt };
    }
  }
  if (status === 200 && isUnmark(body)) return { kind: 'unmarked', reference: body.reference };
  const code = isRecord(body) && typeof body.code === 'string' ? body.code : undefined;
  return (code !== undefined && refusals[code]) || { kind: 'failed' };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isMark(value: unknown): value is { reference: string; answered_at: string } {
  return (
    isRecord(value) && typeof value.reference === 'string' && typeof value.answered_at === 'string'
  );
}

function isUnmark(value: unknown): value is { reference: string; was_answered: boolean } {
  return (
    isRecord(value) &&
    typeof value.reference === 'string' &&
    typeof value.was_answered === 'boolean'
  );
}

/** When it was answered, as the practitioner reads it: UK time, e.g. "Tuesday, 24 November 2026 at 13:05". */
export function formatAnsweredAt(answeredAt: Date, locale: string, timeZone: string): string {
  return new Intl.DateTimeFormat(locale, {
    dateStyle: 'full',
    timeStyle: 'short',
    timeZone,
  }).format(answeredAt);
}
