import { shortReference } from '../core/booking-reference.ts';
import { formatUkTimeShort } from '../uk-time.ts';
import {
  bookingSubject,
  markAnsweredActions,
  nameAndReference,
  replyActions,
  replyBy,
  type BookingNotice,
  type ReplyAction,
} from './booking-notice.ts';
import { reachedThePractice, reachedWords } from './channel-names.ts';
import { plainText } from './email-html.ts';
import type { DailySummary } from './daily-summary.ts';
import type { FloodDigestMessage } from './flood-digest.ts';
import { composeAlert, type PracticeAlert } from './practice-alerts.ts';
import { reminderLine, type ReminderMessage } from './reminder-message.ts';
import { waitingListCommand } from './message-lists.ts';

/**
 * What the practice's phone shows for each message pushed through ntfy
 * (ntfy.ts): a title, a few lines, and for a booking request the buttons that
 * answer it. A push is read on a lock screen and sits on a server the practice
 * may not run, so it says less than the e-mail: of the visitor, only the name,
 * the short reference and the phone number are written out; the e-mail address
 * and the Instagram handle appear only inside the buttons that open them.
 */

/** ntfy's priorities: 1 (min) to 5 (max); 3 is the default, 4 makes the phone insist. */
type NtfyPriority = 1 | 2 | 3 | 4 | 5;

/** A button that opens a link (ntfy's `view` action); `clear` dismisses the push once tapped. */
interface NtfyViewAction {
  action: 'view';
  label: string;
  url: string;
  clear: boolean;
}

/** The fields of ntfy's JSON publish form, less the topic (docs.ntfy.sh/publish, "Publish as JSON"). */
export interface NtfyMessage {
  title: string;
  message: string;
  priority: NtfyPriority;
  /** Tags that ntfy shows as emoji before the title. */
  tags: string[];
  actions: NtfyViewAction[];
}

/** ntfy shows at most three buttons. */
export const maxNtfyActions = 3;

/**
 * ntfy turns a message of more than 4,096 bytes into an attachment, which a
 * phone does not show in the notification: messages are cut below that.
 */
const maxMessageBytes = 3_500;

/**
 * The ways of answering kept for a push, in this order, by the links
 * booking-notice.ts makes: a chat on Instagram, a call, an e-mail. Each opens
 * an app on the phone the push arrives on. The Instagram chat comes first
 * because a handle means the visitor asked for an answer there.
 */
const pushedReplies = ['https://ig.me/', 'tel:', 'mailto:'] as const;

/**
 * The buttons for a request: the ways of answering it, the visitor's
 * preferred one first, then its "Mark as answered", which takes the last of
 * ntfy's three places.
 */
function requestActions(notice: BookingNotice, siteUrl: string): NtfyViewAction[] {
  const mark = markAnsweredActions(notice, siteUrl).map(viewAction);
  const answers = replyActions(notice);
  const replies = pushedReplies
    .map((scheme) => answers.find((answer) => answer.href.startsWith(scheme)))
    .filter((answer) => answer !== undefined)
    .slice(0, maxNtfyActions - mark.length)
    .map(viewAction);
  return [...replies, ...mark];
}

/**
 * A new request: who, and the buttons that answer it, then its "Mark as
 * answered", so that it is answered and marked from the lock screen.
 */
export function composeBookingPush(notice: BookingNotice, siteUrl: string): NtfyMessage {
  return {
    title: bookingSubject(notice),
    message: [
      `Ref ${shortReference(notice.id)}, received ${formatUkTimeShort(notice.createdAt)}`,
      `Phone ${plainText(notice.phone)}`,
      `Reply by ${formatUkTimeShort(replyBy(notice.createdAt))}`,
      ...(notice.instagram === null ? [] : ['Prefers a reply by Instagram message.']),
    ].join('\n'),
    priority: 4,
    tags: ['calendar'],
    actions: requestActions(notice, siteUrl),
  };
}

/** One short push for a digest: the count is in the title; the names are in the e-mail and the command. */
export function composeFloodDigestPush(digest: FloodDigestMessage): NtfyMessage {
  return {
    title: digest.subject,
    message: [
      'So many at once is most likely a robot, but any of them may be a real visitor, who was promised a reply.',
      `Review them: ${digest.reviewCommand}`,
    ].join('\n'),
    priority: 3,
    tags: ['inbox_tray'],
    actions: [],
  };
}

/**
 * A reminder: who waits and when each is due, the first due first. The
 * buttons are for the first request: with it alone, the ways to answer it and
 * "Mark as answered"; with others, only "Mark <ref> as answered", since a
 * "Call" would not say whom it calls.
 */
export function composeReminderPush(reminder: ReminderMessage): NtfyMessage {
  // composeReminder makes none without a request.
  const first = reminder.requests[0]!;
  const alone = reminder.requests.length === 1;
  return {
    title: reminder.subject,
    message: fitMessage(
      reminder.requests.map((notice) => reminderLine(notice, reminder.composedAt)),
    ),
    priority: 4,
    tags: ['alarm_clock'],
    actions: alone
      ? requestActions(first, reminder.siteUrl)
      : markAnsweredActions(first, reminder.siteUrl).map(({ href }) =>
          viewAction({ label: `Mark ${shortReference(first.id)} as answered`, href }),
        ),
  };
}

/** An alert holds nothing a visitor typed: its text is pushed as it is, cut to fit. */
export function composeAlertPush(alert: PracticeAlert): NtfyMessage {
  const { subject, text } = composeAlert(alert);
  return {
    title: subject,
    message: fitMessage(text.trimEnd().split('\n')),
    priority: 4,
    tags: ['warning'],
    actions: [],
  };
}

/**
 * The daily summary in a few lines: each request by name and reference with
 * its reply-by time (or answered), and what is failing. Quiet when all is well, insistent
 * when a notification is failing.
 */
export function composeDailySummaryPush(summary: DailySummary): NtfyMessage {
  const stillWaiting = new Set(summary.waiting.map((booking) => booking.id));
  const lines = summary.requests.map(({ booking, notification }) => {
    const state =
      notification.state !== 'failing'
        ? ''
        : reachedThePractice(notification.reachedBy)
          ? ` (notified ${reachedWords(notification.reachedBy)}; another channel failing)`
          : ' (NOT notified: failing)';
    const reply = stillWaiting.has(booking.id)
      ? `reply by ${formatUkTimeShort(replyBy(booking.createdAt))}`
      : 'answered';
    return `${nameAndReference(booking)}: ${reply}${state}`;
  });
  const failing =
    summary.failingCount === 0
      ? []
      : [
          `${summary.failingCount} notification${summary.failingCount === 1 ? ' is' : 's are'} failing: docs/notifications.md, \u201cWhen a notification fails\u201d.`,
        ];
  const waiting =
    summary.waitingCount === 0
      ? []
      : [
          `${summary.waitingCount} waiting for a reply${summary.lateCount === 0 ? '' : `, ${summary.lateCount} late`}: ${summary.emailed ? 'the e-mail lists them, or ' : 'see them with '}${waitingListCommand}.`,
        ];
  const urgent = summary.failingCount > 0 || summary.lateCount > 0;
  return {
    title: summary.subject,
    // What fails before the list, which a push too long for ntfy loses the end of.
    message: fitMessage([
      ...waiting,
      ...failing,
      ...(lines.length === 0
        ? [`No new requests since ${formatUkTimeShort(summary.since)}.`]
        : lines),
      'Every day, with or without requests: a day without it is the alarm.',
    ]),
    priority: urgent ? 4 : 3,
    tags: [urgent ? 'warning' : 'sunrise'],
    actions: [],
  };
}

/**
 * A button that opens `url`, leaving the push in place: a call not picked up, a
 * message not yet sent, or a mark not yet confirmed on its page (or a reminder
 * of several requests, of which it marks one) must not take it away.
 */
function viewAction({ label, href }: ReplyAction): NtfyViewAction {
  return { action: 'view', label, url: href, clear: false };
}

/** The lines that fit in a push, and `…` for the rest. */
function fitMessage(lines: readonly string[]): string {
  const bytes = (text: string) => new TextEncoder().encode(text).length;
  const kept: string[] = [];
  for (const line of lines) {
    if (bytes([...kept, line, '\u2026'].join('\n')) > maxMessageBytes) {
      kept.push('\u2026');
      break;
    }
    kept.push(line);
  }
  return kept.join('\n');
}
