import { shortReference } from '../../core/booking-reference.ts';
import { retentionMonths } from '../../src/content/site.ts';
import { ConfigError } from '../config.ts';
import { describePeriod, type Period } from '../retention/period.ts';
import {
  formatDuration,
  formatUkTimeLong,
  nextUkDay,
  ukClockInstant,
  ukDayOf,
  type UkClockTime,
  type UkDay,
} from '../uk-time.ts';
import { plainText, replyBy } from './booking-notice.ts';
import type { FailingNotification, NotifiedRequest } from './notification-states.ts';

/**
 * The daily summary (the "heartbeat"): once a day at a set UK time, one message
 * to the practice listing the requests of the last 24 hours, how long each has
 * waited, and the notifications that keep failing. It is sent when there is
 * nothing to report too, so that a morning without it is itself the alarm.
 * When it is due, and what it says, are decided here for the server and the
 * Edge Function alike.
 */

export interface DailySchedule {
  /** The UK time of the daily run: the summary, and the retention purge. */
  at: UkClockTime;
  /** Whether the summary is sent (NOTIFY_DAILY_SUMMARY_AT=off turns it off, not the purge). */
  summary: boolean;
}

const defaultDailyTime: UkClockTime = { hour: 7, minute: 0 };

type Env = Record<string, string | undefined>;

/** NOTIFY_DAILY_SUMMARY_AT: `HH:MM` in UK time (07:00 by default), or `off`. */
export function loadDailySchedule(env: Env = process.env): DailySchedule {
  const text = env.NOTIFY_DAILY_SUMMARY_AT?.trim();
  if (!text) return { at: defaultDailyTime, summary: true };
  if (text.toLowerCase() === 'off') return { at: defaultDailyTime, summary: false };
  const match = /^(\d{1,2}):(\d{2})$/.exec(text);
  const hour = Number(match?.[1]);
  const minute = Number(match?.[2]);
  if (!match || hour > 23 || minute > 59) {
    throw new ConfigError([
      `NOTIFY_DAILY_SUMMARY_AT must be a time of day in UK time, 00:00 to 23:59 (e.g. 07:00), or off (got "${text}").`,
    ]);
  }
  return { at: { hour, minute }, summary: true };
}

/** "07:00". */
export function formatClockTime({ hour, minute }: UkClockTime): string {
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/**
 * The UK day whose daily run is due at `now`: today, once the UK clock has
 * reached `at`; undefined before. Whether it has already been done that day is
 * the database's to say (daily-run.ts).
 */
export function dailyRunDue(now: Date, at: UkClockTime): UkDay | undefined {
  const today = ukDayOf(now);
  return now.getTime() >= ukClockInstant(today, at).getTime() ? today : undefined;
}

/**
 * The next instant after `now` at which the UK clock shows `at`: today's if it
 * is still to come, else tomorrow's, so a day with a clock change is 23 or 25
 * hours long.
 */
export function nextDailyRun(now: Date, at: UkClockTime): Date {
  const today = ukDayOf(now);
  const todays = ukClockInstant(today, at);
  return todays.getTime() > now.getTime() ? todays : ukClockInstant(nextUkDay(today), at);
}

/** What the retention purge of the daily run did. */
export type RetentionReport =
  | { kind: 'purged'; period: Period; deleted: number }
  | { kind: 'off' }
  | { kind: 'failed'; error: string };

/** The summary lists the requests of this long before it is composed. */
export const summaryWindowMs = 24 * 60 * 60 * 1000;

export interface DailySummaryInput {
  /** The UK day it is for. */
  day: UkDay;
  /** When it is composed. */
  now: Date;
  /** The time it is sent every day. */
  at: UkClockTime;
  /** The requests of the `summaryWindowMs` (24 hours) before `now`, oldest first. */
  requests: readonly NotifiedRequest[];
  /** Every notification whose last attempt failed. */
  failing: readonly FailingNotification[];
  retention: RetentionReport;
}

export interface DailySummaryMessage {
  day: UkDay;
  subject: string;
  text: string;
  /** The requests it lists, for a channel that says less than the text (a push). */
  requests: readonly NotifiedRequest[];
  /** How many notifications are failing. */
  failingCount: number;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function notifiedLine({ notification }: NotifiedRequest): string {
  switch (notification.state) {
    case 'sent':
      return 'Notified: yes';
    case 'pending':
      return 'Notified: not yet, being sent';
    case 'failing':
      return `Notified: NO, failing after ${plural(notification.attempts, 'attempt', 'attempts')}: ${notification.lastError ?? ''}`;
    case 'none':
      return 'Notified: no (stored before notifications were set up)';
  }
}

function retentionLine(report: RetentionReport): string {
  switch (report.kind) {
    case 'purged':
      return report.deleted === 0
        ? `Retention: no request older than ${describePeriod(report.period)} to delete.`
        : `Retention: ${plural(report.deleted, 'request', 'requests')} older than ${describePeriod(report.period)} ${report.deleted === 1 ? 'was' : 'were'} deleted, as the privacy notice promises.`;
    case 'off':
      return `Retention: old requests are not deleted automatically (RETENTION=off), although the privacy notice promises it: delete them with \`npm run bookings -- purge --older-than ${retentionMonths}m\`.`;
    case 'failed':
      return `Retention: the deletion of old requests failed: ${report.error}. It is tried again tomorrow; the server's log (or the function's) says more.`;
  }
}

/** The summary as plain text, for an e-mail or a webhook. */
export function composeDailySummary(input: DailySummaryInput): DailySummaryMessage {
  const { requests, failing, now } = input;
  const since = new Date(now.getTime() - summaryWindowMs);
  const newRequests =
    requests.length === 0
      ? 'no new requests'
      : plural(requests.length, 'new booking request', 'new booking requests');
  const failingPart =
    failing.length === 0
      ? ''
      : `, ${plural(failing.length, 'notification', 'notifications')} failing`;
  const lines: string[] = [];

  if (requests.length === 0) {
    lines.push(`No new requests in the 24 hours since ${formatUkTimeLong(since)}.`);
  } else {
    lines.push(
      `${plural(requests.length, 'booking request', 'booking requests')} in the 24 hours since ${formatUkTimeLong(since)}, oldest first:`,
    );
    requests.forEach((request, index) => {
      const { booking } = request;
      const contact = [
        `Phone ${plainText(booking.phone)}`,
        `e-mail ${plainText(booking.email)}`,
        ...(booking.instagram ? [`Instagram ${plainText(booking.instagram)}`] : []),
      ].join(', ');
      lines.push(
        '',
        `${index + 1}. ${plainText(booking.fullName)}, ref ${shortReference(booking.id)}`,
        `   Received ${formatUkTimeLong(booking.createdAt)}: has waited ${formatDuration(booking.createdAt, now)}; reply by ${formatUkTimeLong(replyBy(booking.createdAt))}`,
        `   ${contact}`,
        `   ${notifiedLine(request)}`,
      );
    });
  }

  lines.push('');
  if (failing.length === 0) {
    lines.push('No notification is failing.');
  } else {
    lines.push(
      `${failing.length === 1 ? 'This notification is' : `These ${failing.length} notifications are`} failing (retried until ${failing.length === 1 ? 'it gets' : 'they get'} through):`,
      ...failing.map(
        (entry) =>
          `  Ref ${shortReference(entry.bookingId)}, received ${formatUkTimeLong(entry.createdAt)}, ${plural(entry.attempts, 'attempt', 'attempts')}: ${entry.lastError}`,
      ),
      'What to check: docs/notifications.md, \u201cWhen a notification fails\u201d.',
    );
  }

  lines.push(
    '',
    retentionLine(input.retention),
    '',
    `This summary comes every day at ${formatClockTime(input.at)} UK time, with or without requests. If one day it does not come, notifications may have stopped: check that the server is running (on hosted Supabase, the notify-bookings function's logs), and run \`npm run bookings\`.`,
    '',
  );

  return {
    day: input.day,
    subject: `Daily summary: ${newRequests}${failingPart}`,
    text: lines.join('\n'),
    requests,
    failingCount: failing.length,
  };
}
