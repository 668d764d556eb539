import { createHash } from 'node:crypto';
import { shortReference } from '../core/booking-reference.ts';
import { practice } from '../content/practice.ts';
import {
  formatDuration,
  formatUkTimeLong,
  formatUkTimeShort,
  nextUkDay,
  ukDayOf,
} from '../uk-time.ts';
import {
  actionLine,
  composeWebhookBody,
  markAnsweredActions,
  nameAndReference,
  phoneLine,
  replyActions,
  replyBy,
  type BookingNotice,
  type ReplyAction,
} from './booking-notice.ts';
import {
  breakAnywhere,
  buttonHtml,
  colours,
  emailDocument,
  escapeHtml,
  linkHtml,
} from './email-html.ts';
import { capList, formatCount, waitingListCommand } from './message-lists.ts';
import { telUrl } from './reply-links.ts';

/**
 * The reminder: the requests still waiting NOTIFY_REMINDER_HOURS before their
 * reply-by time, sent to the practice once, together, through every channel
 * (reminders.ts decides when). What it says is decided here for the server and
 * the Edge Function alike: in the subject, how many wait and when the first is
 * due (or how late it is); per request, who, when it must be answered, the
 * phone, and the links that answer it and mark it answered.
 */

const minuteMs = 60_000;

/** "18:40": the hours and minutes of formatUkTimeShort, which always ends with them. */
function ukClock(instant: Date): string {
  return formatUkTimeShort(instant).slice(-5);
}

/** "at 18:40", "tomorrow at 09:15", or the full date when further away (UK days). */
export function describeDue(due: Date, now: Date): string {
  const day = ukDayOf(due);
  if (day === ukDayOf(now)) return `at ${ukClock(due)}`;
  if (day === nextUkDay(ukDayOf(now))) return `tomorrow at ${ukClock(due)}`;
  return `on ${formatUkTimeShort(due)}`;
}

/**
 * Late by at least a minute: a reminder at the reply-by time itself is still
 * "due", not "0 min late" (unlike booking-notice.ts's isLate, which counts
 * a request late from that time on).
 */
function isLateByAMinute(due: Date, now: Date): boolean {
  return now.getTime() - due.getTime() >= minuteMs;
}

/** "3 h 20 min left", "1 h 20 min late", "due now". */
export function describeTimeLeft(due: Date, now: Date): string {
  if (isLateByAMinute(due, now)) return `${formatDuration(due, now)} late`;
  if (due.getTime() - now.getTime() < minuteMs) return 'due now';
  return `${formatDuration(now, due)} left`;
}

/** 16 hex digits of a hash of the ids: short, and the same for the same requests at every attempt. */
function stableId(ids: readonly string[]): string {
  return createHash('sha256')
    .update([...ids].sort().join(','))
    .digest('hex')
    .slice(0, 16);
}

/** The subject: how many wait, and when the first is due or how late it is. */
function composeSubject(requests: readonly BookingNotice[], now: Date): string {
  const first = replyBy(requests[0]!.createdAt);
  const when = isLateByAMinute(first, now)
    ? `${formatDuration(first, now)} late`
    : `due ${describeDue(first, now)}`;
  return requests.length === 1
    ? `A request waits for a reply; it is ${when}`
    : `${requests.length} requests wait for a reply; the first is ${when}`;
}

export type ReminderMessage = ReturnType<typeof composeReminder>;

export function composeReminder(requests: readonly BookingNotice[], now: Date, siteUrl: string) {
  if (requests.length === 0) throw new Error('A reminder needs at least one request.');
  // The first due first, whatever order they were given in.
  const ordered = [...requests].sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
  );
  const id = stableId(ordered.map((notice) => notice.id));
  const subject = composeSubject(ordered, now);
  const { replyWithinHours } = practice;
  const intro = `The site promises a reply within ${replyWithinHours} hours, by e-mail or Instagram message. ${ordered.length === 1 ? 'This request is' : `These ${ordered.length} requests are`} not marked as answered yet.`;
  const afterAnswering =
    'Once you have answered a request, tap its \u201cMark as answered\u201d: the daily summary then stops listing it as waiting. This is the only reminder.';
  const footer = `Reminder ${id}, ${formatUkTimeLong(now)}.`;
  const { listed, unlisted } = capList(ordered);
  const more = `\u2026and ${formatCount(unlisted)} more, not listed here: see them all with ${waitingListCommand}`;

  const text = [
    subject,
    '',
    intro,
    afterAnswering,
    '',
    ...listed.flatMap((notice, index) => {
      const due = replyBy(notice.createdAt);
      const actions = [
        ...replyActions(notice).slice(0, 1),
        ...markAnsweredActions(notice, siteUrl),
      ];
      return [
        `${index + 1}. ${nameAndReference(notice)}`,
        `   Reply by ${formatUkTimeShort(due)} (${describeTimeLeft(due, now)})`,
        `   Received ${formatUkTimeShort(notice.createdAt)}`,
        `   ${phoneLine(notice.phone)}`,
        ...actions.map((action) => `   ${actionLine(action)}`),
        '',
      ];
    }),
    ...(unlisted > 0 ? [more, ''] : []),
    footer,
    '',
  ].join('\n');

  const html = emailDocument({
    title: subject,
    preheader: listed.map((notice) => shortReference(notice.id)).join(' · '),
    kind: 'Reminder',
    content: [
      `<p style="margin:0 0 12px">${escapeHtml(intro)}</p>`,
      `<p style="margin:0 0 16px;font-size:14px;line-height:20px;color:${colours.muted}">${escapeHtml(afterAnswering)}</p>`,
      '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse">',
      ...listed.map((notice) =>
        waitingRequestHtml(notice, now, replyActions(notice).slice(0, 1), siteUrl),
      ),
      '</table>',
      ...(unlisted > 0 ? [`<p style="margin:8px 0 0">${escapeHtml(more)}</p>`] : []),
      `<p style="margin:8px 0 0;font-size:14px;line-height:20px;color:${colours.muted}">${escapeHtml(footer)}</p>`,
    ],
  });

  return {
    /** Made from the requests' ids: a retry has the same Message-ID and Idempotency-Key. */
    id,
    /** The notifier's clock when it was composed: what "left" and "late" are counted from. */
    composedAt: now,
    /** The requests it reminds of, the first due first. */
    requests: ordered,
    /** SITE_URL, the site its links open. */
    siteUrl,
    subject,
    text,
    html,
    webhookBody: {
      type: 'practice.reminder',
      reminder: {
        id,
        created_at: now.toISOString(),
        count: ordered.length,
        subject,
        text,
        bookings: ordered.map((notice) => ({
          ...composeWebhookBody(notice).booking,
          reply_by: replyBy(notice.createdAt).toISOString(),
          reply_by_uk: formatUkTimeLong(replyBy(notice.createdAt)),
        })),
      },
    },
  };
}

/**
 * One waiting request as a row of a message's list: who, the reference, when
 * to reply by and the time left, the phone, then `replies` as buttons (the
 * first one primary) and its "Mark as answered", so that it is answered and
 * marked from a phone alone. Shared by the reminder and the daily summary.
 */
export function waitingRequestHtml(
  notice: BookingNotice,
  now: Date,
  replies: readonly ReplyAction[],
  siteUrl: string,
): string {
  const due = replyBy(notice.createdAt);
  const late = isLateByAMinute(due, now);
  const phoneHtml = linkHtml(notice.phone, telUrl(notice.phone));
  const buttons = [
    ...replies.map((reply, index) => buttonHtml(reply, index === 0)),
    ...markAnsweredActions(notice, siteUrl).map((mark) => buttonHtml(mark, false)),
  ];
  return [
    `<tr><td style="padding:20px 0 8px;border-top:1px solid ${colours.border};${breakAnywhere}">`,
    `<p style="margin:0;font-size:18px;font-weight:bold;line-height:26px">${escapeHtml(notice.fullName)}</p>`,
    `<p style="margin:0 0 12px;font-size:14px;line-height:20px;color:${colours.muted}">Reference <strong style="color:${colours.ink};letter-spacing:1px">${escapeHtml(shortReference(notice.id))}</strong><br>Received ${escapeHtml(formatUkTimeShort(notice.createdAt))}</p>`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 12px"><tr><td bgcolor="${colours.accentTint}" style="padding:10px 14px;background-color:${colours.accentTint};border-left:4px solid ${colours.accent};border-radius:0 8px 8px 0">`,
    `<p style="margin:0;font-size:14px;line-height:20px;color:${colours.muted}">Reply by</p>`,
    `<p style="margin:0;font-size:16px;font-weight:bold;line-height:24px">${escapeHtml(formatUkTimeShort(due))}</p>`,
    `<p style="margin:0;font-size:14px;line-height:20px;font-weight:bold;color:${late ? colours.accent : colours.heading}">${escapeHtml(describeTimeLeft(due, now))}</p>`,
    '</td></tr></table>',
    `<p style="margin:0 0 12px">Phone ${phoneHtml}</p>`,
    ...(buttons.length > 0
      ? [
          '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">',
          ...buttons,
          '</table>',
        ]
      : []),
    '</td></tr>',
  ].join('\n');
}

/** "Amina Khan, ref 5F0C2A8E: reply by Thu 26 Nov 2026 18:40 (3 h 20 min left)", for a push. */
export function reminderLine(notice: BookingNotice, now: Date): string {
  const due = replyBy(notice.createdAt);
  return `${nameAndReference(notice)}: reply by ${formatUkTimeShort(due)} (${describeTimeLeft(due, now)})`;
}
