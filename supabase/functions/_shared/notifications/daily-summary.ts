import { shortReference } from '../core/booking-reference.ts';
import { practice } from '../content/practice.ts';
import { describePeriod, type Period } from '../retention/period.ts';
import {
  formatDuration,
  formatUkTimeLong,
  formatUkTimeShort,
  nextUkDay,
  ukClockInstant,
  type UkClockTime,
  type UkDay,
} from '../uk-time.ts';
import {
  actionLine,
  contactLine,
  isLate,
  markAnsweredActions,
  nameAndReference,
  replyActions,
  replyBy,
  replyWithinMs,
  type BookingNotice,
} from './booking-notice.ts';
import { reachedThePractice, reachedWords, reachedYou } from './channel-names.ts';
import {
  colours,
  emailDocument,
  escapeHtml,
  linkHtml,
  plainText,
  textLineHtml,
} from './email-html.ts';
import { formatClockTime } from './daily-schedule.ts';
import {
  capList,
  formatCount,
  listCommandFrom,
  plural,
  waitingListCommand,
} from './message-lists.ts';
import type { FailingNotification, NotifiedRequest, RequestReply } from './notification-states.ts';
import { describeTimeLeft, waitingRequestHtml } from './reminder-message.ts';
import { telUrl } from './reply-links.ts';

/**
 * The daily summary (the "heartbeat"): once a day at a set UK time, one message
 * to the practice listing first the notifications that keep failing, if any,
 * then every request still waiting for a reply, with the time left before its
 * reply-by time or how late it is, then the week's record of replies, then the
 * requests since the day before's summary. In the e-mail's HTML part each waiting
 * request comes with the buttons that answer it and mark it answered, so that
 * the whole day is run from a phone. It is sent when there is
 * nothing to report too, so that a morning without it is itself the alarm.
 * When it is due, and what it says, are decided here for the server and the
 * Edge Function alike.
 */

/** What the retention purge of the daily run did. */
export type RetentionReport =
  | { kind: 'purged'; period: Period; deleted: number }
  | { kind: 'off' }
  | { kind: 'not purging'; reason: string }
  | { kind: 'failed'; error: string };

/**
 * Where a summary's list of new requests begins: when the day before's summary
 * was due. So no request is left out of the lists when the clocks change (a
 * day of 23 or 25 hours) or a summary comes late (the next one lists again,
 * from the due time, what that one listed past it), where a window of 24 hours
 * back from the sending lost an hour each autumn, and the hours a late summary
 * had moved on. (Moving NOTIFY_DAILY_SUMMARY_AT later leaves that day's earlier
 * requests out of the lists; those unanswered are still among the waiting.)
 */
export function summaryWindowStart(day: UkDay, at: UkClockTime): Date {
  return ukClockInstant(nextUkDay(day, -1), at);
}

/**
 * "This week" of the record of replies: the 7 × 24 hours before the summary
 * (168 hours, whatever the clock changes do to the UK days in between).
 */
export const recordWindowMs = 7 * 24 * 60 * 60 * 1000;

const replyWithinHours = practice.replyWithinHours;

export interface DailySummaryInput {
  /** The UK day it is for. */
  day: UkDay;
  /** When it is composed. */
  now: Date;
  /** The time it is sent every day. */
  at: UkClockTime;
  /** The requests from `summaryWindowStart` to `now`, oldest first. */
  requests: readonly NotifiedRequest[];
  /** Every notification whose last attempt failed. */
  failing: readonly FailingNotification[];
  /** Every request waiting for a reply at `now`, however old, oldest first. */
  waiting: readonly BookingNotice[];
  /** SITE_URL: where the "Mark as answered" links go. */
  siteUrl: string;
  /** Whether it goes by e-mail too, which a push that lists less can point to. */
  emailed: boolean;
  /**
   * The requests of the `recordWindowMs` (7 days) before `now`, with their
   * answers as they stood at `now`: the week's record, and whether each of the
   * requests since the day before's summary (within the week) was answered.
   */
  replies: readonly RequestReply[];
  retention: RetentionReport;
  /** Settings of the daily run that could not be read (hosted only), each a sentence saying what is wrong. */
  settingProblems?: readonly string[];
}

/**
 * The week's record of replies. Only the requests whose outcome is known
 * count: answered, or past their reply-by time without an answer. One still
 * within its reply-by time and unanswered may yet be answered in time, so it
 * is left for a later summary.
 */
interface ReplyRecord {
  /** Requests whose outcome is known. */
  decided: number;
  /** Of those, the ones answered within replyWithinHours of arriving. */
  answeredInTime: number;
  /** The median time from arrival to answer over every answered one, late ones included; undefined when none was answered. */
  medianMs: number | undefined;
}

/** The middle value, or the mean of the two middle values of an even count; undefined for none. */
export function medianOf(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** When the request was answered, if it was by `now`. */
function answeredBy(reply: RequestReply | undefined, now: Date): Date | undefined {
  const answeredAt = reply?.answeredAt;
  return answeredAt && answeredAt.getTime() <= now.getTime() ? answeredAt : undefined;
}

/** The record of `replies` at `now`: answers recorded after `now` are not known yet. */
export function replyRecordOf(replies: readonly RequestReply[], now: Date): ReplyRecord {
  const answerTimes: number[] = [];
  let decided = 0;
  let answeredInTime = 0;
  for (const reply of replies) {
    const answeredAt = answeredBy(reply, now);
    if (answeredAt) {
      // An answer recorded before the request's own time (a clock off between
      // machines) took no time, rather than a negative one.
      const tookMs = Math.max(0, answeredAt.getTime() - reply.createdAt.getTime());
      decided += 1;
      answerTimes.push(tookMs);
      if (tookMs <= replyWithinMs) answeredInTime += 1;
    } else if (replyBy(reply.createdAt).getTime() <= now.getTime()) {
      decided += 1;
    }
  }
  return { decided, answeredInTime, medianMs: medianOf(answerTimes) };
}

/** "This week: answered 9 of 10 within 24 hours, median 3 h 10 min." */
export function replyRecordLine(record: ReplyRecord): string {
  if (record.decided === 0) {
    return 'This week: no request has been answered or reached its reply-by time yet.';
  }
  const median =
    record.medianMs === undefined
      ? ''
      : `, median ${formatDuration(new Date(0), new Date(record.medianMs))}`;
  return `This week: answered ${record.answeredInTime} of ${record.decided} within ${replyWithinHours} hours${median}.`;
}

function notifiedLine({ notification }: NotifiedRequest): string {
  switch (notification.state) {
    case 'sent':
      return 'Notified: yes';
    case 'pending':
      return 'Notified: not yet';
    case 'failing': {
      const failing = `failing after ${plural(notification.attempts, 'attempt')}: ${notification.lastError ?? ''}`;
      return reachedThePractice(notification.reachedBy)
        ? `Notified: yes ${reachedWords(notification.reachedBy)}; another channel still ${failing}`
        : `Notified: NO, ${failing}`;
    }
    case 'none':
      return 'Notified: no (stored before notifications were set up)';
  }
}

const afterAnswering =
  'Once you have answered one, open its \u201cMark as answered\u201d link; or run `npx hijama answer REF`.';

/** The waiting requests' lines; `late` is " (2 late)", or empty when none is. */
function waitingLines(
  waiting: readonly BookingNotice[],
  now: Date,
  late: string,
  siteUrl: string,
): string[] {
  if (waiting.length === 0) return ['No request is waiting for a reply.'];
  const { listed, unlisted } = capList(waiting);
  return [
    `${waiting.length === 1 ? '1 request is' : `${formatCount(waiting.length)} requests are`} waiting for a reply${late}, oldest first:`,
    ...listed.flatMap((booking) => [
      `- ${describeTimeLeft(replyBy(booking.createdAt), now)}: ${nameAndReference(booking)}, phone ${plainText(booking.phone)} (reply by ${formatUkTimeLong(replyBy(booking.createdAt))})`,
      ...markAnsweredActions(booking, siteUrl).map((mark) => `  ${actionLine(mark)}`),
    ]),
    ...(unlisted > 0 ? [`\u2026 and ${formatCount(unlisted)} more: ${waitingListCommand}`] : []),
    afterAnswering,
  ];
}

function answeredLine(booking: BookingNotice, answeredAt: Date | undefined): string {
  if (!answeredAt) return 'Answered: not yet, waiting';
  return `Answered: yes, ${formatUkTimeLong(answeredAt)}, ${formatDuration(booking.createdAt, answeredAt)} after it arrived`;
}

function retentionLine(report: RetentionReport): string {
  switch (report.kind) {
    case 'purged':
      return report.deleted === 0
        ? `Retention: no request older than ${describePeriod(report.period)} to delete.`
        : `Retention: ${plural(report.deleted, 'request')} older than ${describePeriod(report.period)} ${report.deleted === 1 ? 'was' : 'were'} deleted, as the privacy notice promises.`;
    case 'off':
      return `Retention: old requests are not deleted automatically (RETENTION=off), although the privacy notice promises it: delete them with \`npx hijama purge --older-than ${practice.retentionMonths}mo\`.`;
    case 'not purging':
      return `Retention: ${report.reason}`;
    case 'failed':
      return `Retention: the deletion of old requests failed: ${report.error}. It is tried again tomorrow; the server's log (or the function's) says more.`;
  }
}

export type DailySummary = ReturnType<typeof composeDailySummary>;

/** A summary as the channels send it. */
export type DailySummaryMessage = DailySummary & {
  /** Its Message-ID's and Idempotency-Key's: the day and its run's row (numberedMessageKey). */
  key: string;
};

/** The summary as plain text, for an e-mail or a webhook. */
export function composeDailySummary(input: DailySummaryInput) {
  const { requests, failing, waiting, now } = input;
  const since = summaryWindowStart(input.day, input.at);
  const lateCount = waiting.filter((booking) => isLate(booking.createdAt, now)).length;
  const late = lateCount === 0 ? '' : ` (${formatCount(lateCount)} late)`;
  const waitingCount =
    waiting.length === 0 ? '' : `${formatCount(waiting.length)} waiting${late}, `;
  const replies = new Map(input.replies.map((reply) => [reply.bookingId, reply]));
  const newRequests =
    requests.length === 0 ? 'no new requests' : plural(requests.length, 'new booking request');
  const failingPart =
    failing.length === 0 ? '' : `, ${plural(failing.length, 'notification')} failing`;
  const settingProblems = input.settingProblems ?? [];
  const settingsWrong = settingProblems.length;
  const settingsPart =
    settingsWrong === 0 ? '' : `, ${settingsWrong === 1 ? 'a setting' : 'settings'} to mend`;
  const waitingPart = waitingLines(waiting, now, late, input.siteUrl);
  const lines: string[] = [replyRecordLine(replyRecordOf(input.replies, now)), ''];

  if (requests.length === 0) {
    lines.push(`No new requests since ${formatUkTimeLong(since)}.`);
  } else {
    lines.push(
      `${plural(requests.length, 'booking request')} since ${formatUkTimeLong(since)}, oldest first:`,
    );
    const { listed, unlisted } = capList(requests);
    listed.forEach((request, index) => {
      const { booking } = request;
      const answeredAt = answeredBy(replies.get(booking.id), now);
      // How long it has waited, and until when, only while it waits.
      const waited = answeredAt
        ? ''
        : `: has waited ${formatDuration(booking.createdAt, now)}; reply by ${formatUkTimeLong(replyBy(booking.createdAt))}`;
      lines.push(
        '',
        `${index + 1}. ${nameAndReference(booking)}`,
        `   Received ${formatUkTimeLong(booking.createdAt)}${waited}`,
        `   ${contactLine(booking, `Phone ${plainText(booking.phone)}`)}`,
        `   ${notifiedLine(request)}`,
        `   ${answeredLine(booking, answeredAt)}`,
      );
    });
    if (unlisted > 0) {
      lines.push('', `\u2026 and ${formatCount(unlisted)} more: ${listCommandFrom(since)}`);
    }
  }

  lines.push('');
  // What to mend leads, when there is any: a setting of the daily run, then failing
  // notifications (a request the practice may not have heard of, and a channel to
  // mend). Last, Gmail would cut them from a long summary.
  const mendFirst: string[] = [];
  if (settingsWrong > 0) {
    mendFirst.push(
      `${settingsWrong === 1 ? 'A setting is' : 'Settings are'} wrong (docs/configuration.md; on hosted Supabase, set ${settingsWrong === 1 ? 'it' : 'them'} again with \`supabase secrets set\`):`,
      ...settingProblems.map((problem) => `  ${problem}`),
      '',
    );
  }
  if (failing.length === 0) {
    lines.push('No notification is failing.', '');
  } else {
    const { listed, unlisted } = capList(failing);
    mendFirst.push(
      `${failing.length === 1 ? 'This notification is' : `These ${formatCount(failing.length)} notifications are`} failing (retried until ${failing.length === 1 ? 'it gets' : 'they get'} through):`,
      ...listed.map(
        (entry) =>
          `  Ref ${shortReference(entry.bookingId)}, received ${formatUkTimeLong(entry.createdAt)}${reachedYou(entry.reachedBy)}, ${plural(entry.attempts, 'attempt')}: ${entry.lastError}`,
      ),
      ...(unlisted > 0
        ? [`  \u2026 and ${formatCount(unlisted)} more: ${listCommandFrom(listed[0]!.createdAt)}`]
        : []),
      'What to check: docs/notifications.md, \u201cWhen a notification fails\u201d.',
      '',
    );
  }

  lines.push(
    retentionLine(input.retention),
    '',
    `This summary comes every day at ${formatClockTime(input.at)} UK time, with or without requests. If one day it does not come, notifications may have stopped: check that the server is running (on hosted Supabase, the notify-bookings function's logs), and run \`npx hijama list\`.`,
    '',
  );

  // What needs doing first: the requests waiting, then what is new.
  const subject = `Daily summary: ${waitingCount}${newRequests}${failingPart}${settingsPart}`;
  return {
    day: input.day,
    subject,
    text: [...mendFirst, ...waitingPart, '', ...lines].join('\n'),
    html: composeHtml(subject, mendFirst, waitingPart, waiting, lines, now, input.siteUrl),
    /** The requests it lists, for a channel that says less than the text (a push), and since when. */
    requests,
    since,
    /** Every request waiting for a reply, of every day: the others it lists are answered. */
    waiting,
    failingCount: failing.length,
    emailed: input.emailed,
    /** How many requests wait for a reply, of every day. */
    waitingCount: waiting.length,
    /** How many of those are past their reply-by time. */
    lateCount,
  };
}

/**
 * How many waiting requests the HTML part gives a block with every way to
 * answer them; the others it lists get a line each. Gmail cuts an e-mail whose
 * HTML passes 102 KB, and a block is some 5 KB: after a flood, whose requests
 * wait until deleted, the failing notifications below would be cut off.
 */
const waitingInFull = 10;

/** A waiting request in one line: who, its reference, when to reply by, its phone and its Mark as answered link. */
function waitingLineHtml(notice: BookingNotice, siteUrl: string): string {
  return (
    [
      `<p style="margin:0 0 8px;font-size:14px;line-height:20px"><strong>${escapeHtml(notice.fullName)}</strong>, ref ${escapeHtml(shortReference(notice.id))}, reply by ${escapeHtml(formatUkTimeShort(replyBy(notice.createdAt)))}`,
      linkHtml(notice.phone, telUrl(notice.phone)),
      ...markAnsweredActions(notice, siteUrl).map(({ label, href }) => linkHtml(label, href)),
    ].join(' · ') + '</p>'
  );
}

/**
 * The HTML part: the waiting requests first, the first of them each a block
 * with its buttons (every way to answer it, then "Mark as answered"), then the
 * rest of the text, paragraph by paragraph.
 */
function composeHtml(
  subject: string,
  mendFirst: readonly string[],
  waitingPart: readonly string[],
  waiting: readonly BookingNotice[],
  rest: readonly string[],
  now: Date,
  siteUrl: string,
): string {
  const { listed, unlisted } = capList(waiting);
  const paragraph = (text: string, style = '') =>
    `<p style="margin:0 0 12px${style}">${text.split('\n').map(textLineHtml).join('<br>')}</p>`;
  const muted = `;font-size:14px;line-height:20px;color:${colours.muted}`;
  const paragraphs = (lines: readonly string[]) =>
    lines
      .join('\n')
      .split(/\n{2,}/)
      .filter((block) => block.trim() !== '')
      .map((block) => paragraph(block.trimEnd()));
  return emailDocument({
    title: subject,
    // The inbox's preview line shows no backticks.
    preheader: (mendFirst[0] ?? waitingPart[0]!).replaceAll('`', ''),
    kind: 'Daily summary',
    content: [
      ...paragraphs(mendFirst),
      paragraph(waitingPart[0]!, ';font-weight:bold'),
      ...(listed.length === 0
        ? []
        : [
            '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 12px;border-collapse:collapse">',
            ...listed
              .slice(0, waitingInFull)
              .map((booking) => waitingRequestHtml(booking, now, replyActions(booking), siteUrl)),
            '</table>',
            ...listed.slice(waitingInFull).map((booking) => waitingLineHtml(booking, siteUrl)),
            ...(unlisted > 0
              ? [paragraph(`\u2026 and ${formatCount(unlisted)} more: ${waitingListCommand}`)]
              : []),
            paragraph(afterAnswering, muted),
          ]),
      `<hr style="margin:8px 0 16px;border:0;border-top:1px solid ${colours.border}">`,
      ...paragraphs(rest),
    ],
  });
}
