import { shortReference } from '../../supabase/functions/_shared/core/booking-reference.ts';
import { bookingFieldColumns } from '../../supabase/functions/_shared/core/booking-rules.ts';
import type { BookingRow } from '../../supabase/functions/_shared/core/booking-row.ts';
import type {
  AnswerChannel,
  AnswerMarkedBy,
} from '../../supabase/functions/_shared/db/booking-answers.ts';
import {
  reachedThePractice,
  reachedYou,
  type ChannelName,
} from '../../supabase/functions/_shared/notifications/channel-names.ts';
import { plainText } from '../../supabase/functions/_shared/notifications/email-html.ts';
import { floodDigestIntervalMs } from '../../supabase/functions/_shared/notifications/flood-digest.ts';
import {
  capList,
  formatCount,
  plural,
} from '../../supabase/functions/_shared/notifications/message-lists.ts';
import { channelSettingsHint } from '../../supabase/functions/_shared/notifications/notify-config.ts';
import type {
  FailingNotification,
  NotificationState,
} from '../../supabase/functions/_shared/notifications/notification-states.ts';
import { formatUkTimeLong, formatUkTimeShort } from '../../supabase/functions/_shared/uk-time.ts';
import { describeReplyTime } from './reply-deadline.ts';

/** Whether the practice was told of a request (notification-states.ts), as the command prints it. */
export interface NotificationRecord {
  state: NotificationState;
  attempts: number;
  /** Why the last attempt failed, when `state` is `failing`. */
  last_error: string | null;
  /** The channels that took it: some, when another is `failing`. */
  reached_by: ChannelName[];
}

/** One booking request as the command prints it (the REST API's columns). */
export type BookingRecord = BookingRow & {
  /** ISO 8601, UTC. */
  created_at: string;
  /** Absent when it was not read. */
  notification?: NotificationRecord;
  /**
   * When the practice answered it (supabase/functions/_shared/db/booking-answers.ts),
   * answered_at in ISO 8601, UTC; null while it waits for a reply; absent when
   * it could not be read (a database whose migrations were only partly applied).
   */
  answer?: { answered_at: string; channel: AnswerChannel | null; marked_by: AnswerMarkedBy } | null;
};

const notifiedWords: Record<NotificationState, string> = {
  sent: 'sent',
  pending: 'pending',
  failing: 'FAILING',
  none: 'never',
};

interface Column {
  title: string;
  /** Longer values are cut with an ellipsis, so that a row fits a terminal line. */
  maxWidth: number;
  value(record: BookingRecord, now: Date): string;
  /** Shown only when some record has the field (a source too old to read it has none). */
  field?: 'notification' | 'answer';
}

/** When it was answered, or the time left to reply to it (or how late it is). */
function answeredCell(record: BookingRecord, now: Date): string {
  if (record.answer === undefined) return '?';
  if (record.answer) return formatUkTimeShort(new Date(record.answer.answered_at));
  return describeReplyTime(new Date(record.created_at), now);
}

const tableColumns: Column[] = [
  // The reference the practitioner's e-mail shows, to find a request from it.
  { title: 'Ref', maxWidth: 8, value: (record) => shortReference(record.id) },
  {
    title: 'Received (UK time)',
    maxWidth: 21,
    value: (record) => formatUkTimeShort(new Date(record.created_at)),
  },
  {
    title: 'Notified',
    maxWidth: 8,
    value: ({ notification }) => {
      if (!notification) return '?';
      // Told by one channel while another keeps failing: not the alarm of FAILING.
      const partly =
        notification.state === 'failing' && reachedThePractice(notification.reached_by);
      return partly ? 'partly' : notifiedWords[notification.state];
    },
    field: 'notification',
  },
  { title: 'Answered', maxWidth: 21, value: answeredCell, field: 'answer' },
  { title: 'Name', maxWidth: 28, value: (record) => record.full_name },
  { title: 'Phone', maxWidth: 20, value: (record) => record.phone },
  { title: 'E-mail', maxWidth: 32, value: (record) => record.email },
  { title: 'Instagram', maxWidth: 24, value: (record) => record.instagram ?? '' },
];

/**
 * A table for a terminal; control characters in the data are shown as spaces,
 * never interpreted. The Notified column says whether the practice was told
 * of each request, the Answered column when it answered, or the time left to
 * (each shown when the state could be read); the failing notifications follow
 * the table with their last error.
 */
export function formatTable(
  records: readonly BookingRecord[],
  failing: readonly FailingNotification[] = [],
  now: Date = new Date(),
): string {
  const failingLines = formatFailing(failing);
  if (records.length === 0) return `No booking requests.\n${failingLines}`;
  const columns = tableColumns.filter(
    ({ field }) => field === undefined || records.some((record) => record[field] !== undefined),
  );
  const cells = records.map((record) =>
    columns.map((column) => fit(plainText(column.value(record, now)), column.maxWidth)),
  );
  const widths = columns.map((column, index) =>
    Math.max(width(column.title), ...cells.map((row) => width(row[index]!))),
  );
  const line = (values: string[]) =>
    values
      .map((value, index) => value + ' '.repeat(widths[index]! - width(value)))
      .join('  ')
      .trimEnd();
  return (
    [
      line(columns.map((column) => column.title)),
      line(widths.map((size) => '-'.repeat(size))),
      ...cells.map(line),
      '',
    ].join('\n') + failingLines
  );
}

/** The failing notifications, one a line with the last error; empty when none. */
function formatFailing(failing: readonly FailingNotification[]): string {
  if (failing.length === 0) return '';
  return [
    '',
    'Failing notifications (retried until they get through):',
    ...failing.map(
      (entry) =>
        `  ${shortReference(entry.bookingId)}  received ${formatUkTimeShort(entry.createdAt)}${reachedYou(entry.reachedBy)}, ${plural(entry.attempts, 'attempt')}: ${plainText(entry.lastError)}`,
    ),
    '',
  ].join('\n');
}

/**
 * The warning line when notifications are failing (standard error, under any
 * format); undefined when none is.
 */
export function formatFailingWarning(failing: readonly FailingNotification[]): string | undefined {
  if (failing.length === 0) return undefined;
  const count = failing.length;
  const latest = [...failing].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0]!;
  const untold = failing.filter((entry) => !reachedThePractice(entry.reachedBy));
  const told = failing.filter((entry) => reachedThePractice(entry.reachedBy));
  const whose = [
    ...(untold.length === 0 ? [] : [`the practice has not been told of ${requestRefs(untold)}`]),
    ...(told.length === 0
      ? []
      : [`${requestRefs(told)} reached the practice, but not by every channel`]),
  ];
  return (
    `Warning: ${count === 1 ? '1 notification is' : `${formatCount(count)} notifications are`} failing: ${whose.join('; ')}. ` +
    `Last error: ${plainText(latest.lastError)}. ` +
    'docs/notifications.md, \u201cWhen a notification fails\u201d, says what to check.'
  );
}

/** "booking requests 1A2B3C4D, 5F0C2A8E and 3 more". */
function requestRefs(entries: readonly FailingNotification[]): string {
  // A flood's failing requests would make a line of hundreds of kilobytes.
  const { listed, unlisted } = capList(entries);
  const refs =
    listed.map((entry) => shortReference(entry.bookingId)).join(', ') +
    (unlisted > 0 ? ` and ${formatCount(unlisted)} more` : '');
  return `${entries.length === 1 ? 'booking request' : 'booking requests'} ${refs}`;
}

/** Twice as long as a flood's requests wait for their digest. */
const unsentWarningAfterMinutes = (2 * floodDigestIntervalMs) / 60_000;

/**
 * Requests that have waited long without a single attempt to tell the
 * practice: no channel is set, or nothing that sends is running. Read from the
 * queue, so it is true wherever the command runs (a laptop reading hosted
 * Supabase has none of the function's settings). Undefined when there are none.
 */
export function formatUnsentWarning(
  records: readonly BookingRecord[],
  now: Date,
): string | undefined {
  const unsent = records.filter(
    ({ notification, created_at }) =>
      notification?.state === 'pending' &&
      notification.attempts === 0 &&
      now.getTime() - new Date(created_at).getTime() > unsentWarningAfterMinutes * 60_000,
  );
  if (unsent.length === 0) return undefined;
  return (
    `Warning: ${plural(unsent.length, 'booking request')} ${unsent.length === 1 ? 'has' : 'have'} waited more than ${unsentWarningAfterMinutes} minutes ` +
    `with no attempt to tell the practice: no notification channel is set (${channelSettingsHint}), or nothing that sends is running ` +
    '(the server; on hosted Supabase, the notify-bookings function and its pg_cron job). docs/notifications.md says what to check.'
  );
}

function width(text: string): number {
  return [...text].length;
}

function fit(text: string, maxWidth: number): string {
  const characters = [...text];
  return characters.length <= maxWidth ? text : `${characters.slice(0, maxWidth - 1).join('')}…`;
}

const csvHeader = ['id', 'created_at', 'received_uk', ...bookingFieldColumns] as const;

/**
 * RFC 4180 CSV, lines ending in CRLF, every cell in double quotes (inner ones
 * doubled): a spreadsheet whose list separator is `;` (much of Europe) then
 * never splits a name at a `;` into a cell of its own. A cell that a
 * spreadsheet would run as a formula (starting with = + - @, a tab or a
 * carriage return) is prefixed with an apostrophe, inside the quotes (OWASP's
 * advice against formula injection): a phone number `+44 1634…` reads
 * `'+44 1634…`. It starts with a byte order mark: without one, Excel reads the
 * file as Windows-1252, and a name such as Zoë or أمينة comes out garbled.
 */
export function formatCsv(records: readonly BookingRecord[]): string {
  const rows = records.map((record) => [
    record.id,
    record.created_at,
    formatUkTimeLong(new Date(record.created_at)),
    ...bookingFieldColumns.map((column) => record[column] ?? ''),
  ]);
  const lines = [csvHeader, ...rows].map((row) => `${row.map(csvCell).join(',')}\r\n`);
  return `\uFEFF${lines.join('')}`;
}

// C0 controls, DEL and the C1 controls: a terminal or a spreadsheet may act on them.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/g;
// What JSON.stringify leaves raw of them.
const rawInJson = /[\u007f-\u009f]/g;

/** `\u001b` for ESC, and so on: visible, and read back as the same text by a JSON parser. */
function escapeControls(value: string, which: RegExp = controlCharacter): string {
  return value.replace(
    which,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** What a spreadsheet reads as the start of a formula, judged before control characters are escaped. */
const formulaStart = /^[=+\-@\t\r]/;

/**
 * One cell, quoted. Control characters are written as `\u001b` and the like,
 * so that printing the file never sends one to a terminal (a stored row may
 * hold them: rows of earlier rules, or inserted with the service key).
 */
export function csvCell(raw: string): string {
  const neutralised = formulaStart.test(raw) ? `'${raw}` : raw;
  return `"${escapeControls(neutralised).replaceAll('"', '""')}"`;
}

/**
 * JSON with every control character escaped: JSON.stringify leaves DEL and the
 * C1 controls raw, which a terminal may act on.
 */
export function formatJson(records: readonly BookingRecord[]): string {
  return `${escapeControls(JSON.stringify(records, null, 2), rawInJson)}\n`;
}
