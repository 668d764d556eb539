import { shortReference } from '../core/booking-reference.ts';
import { practice } from '../content/practice.ts';
import { formatUkTimeLong, formatUkTimeShort } from '../uk-time.ts';
import {
  actionLine,
  composeWebhookBody,
  contactLine,
  markAnsweredActions,
  nameAndReference,
  replyActions,
  type BookingNotice,
} from './booking-notice.ts';
import {
  colours,
  commandHtml,
  escapeHtml,
  fontStack,
  headingFontStack,
  linkHtml,
} from './email-html.ts';
import type { ClaimedFloodDigest } from './flood-digests.ts';
import { capList, listCommandFrom, plural } from './message-lists.ts';
import { instagramShown } from './reply-links.ts';

/**
 * The flood digest: the booking requests that arrived above the site's hourly
 * threshold (a flood, 20261201000100_limits.sql), sent to the practice
 * together, at most once every `floodDigestIntervalMs`, instead of one e-mail
 * each. What it says is decided here for the server and the Edge Function
 * alike; flood-digests.ts keeps the digests in the database.
 */

/** At most one digest in this long, however many requests wait. */
export const floodDigestIntervalMs = 15 * 60_000;

/**
 * The digest as flood-digests.ts claims it: its number, which makes its
 * Message-ID and Idempotency-Key, when it was opened, its requests and the
 * site's hourly threshold then; and SITE_URL, the site its links open.
 */
type FloodDigestInput = Pick<ClaimedFloodDigest, 'id' | 'createdAt' | 'requests' | 'threshold'> & {
  siteUrl: string;
};

/** "the last 15 minutes", "the last minute", "the last 3 hours": from the oldest request to `now`. */
function describeSpan(oldest: Date, now: Date): string {
  const minutes = Math.max(1, Math.ceil((now.getTime() - oldest.getTime()) / 60_000));
  if (minutes === 1) return 'the last minute';
  if (minutes < 120) return `the last ${minutes} minutes`;
  const hours = Math.ceil(minutes / 60);
  if (hours < 48) return `the last ${hours} hours`;
  return `the last ${Math.ceil(hours / 24)} days`;
}

export type FloodDigestMessage = ReturnType<typeof composeFloodDigest>;

export function composeFloodDigest(input: FloodDigestInput) {
  const { requests, createdAt } = input;
  const count = requests.length;
  const oldest = requests[0]?.createdAt ?? createdAt;
  const span = describeSpan(oldest, createdAt);
  const requestWords = plural(count, 'more booking request');
  const subject = `${requestWords} in ${span}`;
  const { listed, unlisted } = capList(requests);
  const threshold =
    input.threshold > 0
      ? `the ${input.threshold} an hour that are e-mailed one by one`
      : 'those e-mailed one by one';
  const intervalMinutes = floodDigestIntervalMs / 60_000;
  const intro = [
    `${requestWords[0]!.toUpperCase()}${requestWords.slice(1)} arrived in ${span}, above ${threshold}. It looks like a flood, most likely a robot: each new request must now carry a proof of work, which visitors' browsers compute by themselves, so real visitors can still book.`,
    `So that your inbox is not flooded, these requests come together, at most one e-mail every ${intervalMinutes} minutes, instead of one e-mail each. Each is listed with its name and reference; any of them may be a real visitor, who was promised a reply within ${practice.replyWithinHours} hours.`,
  ];
  const reviewCommand = listCommandFrom(oldest);
  const review = `Review them, with everything each visitor typed: ${reviewCommand}`;
  const more = `…and ${plural(unlisted, 'more request')}, not listed here: see them with the command above.`;

  const text = [
    ...intro.flatMap((paragraph) => [paragraph, '']),
    review,
    '',
    ...listed.flatMap((notice, index) => [
      `${index + 1}. ${nameAndReference(notice)}, received ${formatUkTimeShort(notice.createdAt)}`,
      `   ${contactLine(notice)}`,
      ...markAnsweredActions(notice, input.siteUrl).map((mark) => `   ${actionLine(mark)}`),
    ]),
    ...(unlisted > 0 ? ['', more] : []),
    '',
    // The time alone: the id is the queue's row, not a count of digests.
    `Digest made ${formatUkTimeLong(createdAt)}.`,
    '',
  ].join('\n');

  const entryHtml = (notice: BookingNotice) => {
    // The visitor's preferred way first, as in the e-mail of a single request.
    const actions = [...replyActions(notice), ...markAnsweredActions(notice, input.siteUrl)].map(
      ({ label, href }) => linkHtml(label, href),
    );
    const contact = [
      notice.phone,
      notice.email,
      ...(notice.instagram === null ? [] : [`Instagram ${instagramShown(notice.instagram)}`]),
    ].map(escapeHtml);
    return [
      '<li style="margin:0 0 16px">',
      `<strong>${escapeHtml(notice.fullName)}</strong>, ref <strong style="letter-spacing:1px">${escapeHtml(shortReference(notice.id))}</strong>, received ${escapeHtml(formatUkTimeShort(notice.createdAt))}<br>`,
      `${contact.join(' · ')}<br>`,
      actions.join(' · '),
      '</li>',
    ].join('');
  };
  const html = [
    '<!doctype html>',
    '<html lang="en-GB"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(subject)}</title></head>`,
    `<body style="margin:0;padding:16px;background-color:${colours.page};color:${colours.ink};font-family:${fontStack};font-size:16px;line-height:24px;overflow-wrap:anywhere">`,
    `<h1 style="margin:0 0 12px;font-family:${headingFontStack};font-size:24px;font-weight:normal;line-height:30px;color:${colours.heading}">${escapeHtml(subject)}</h1>`,
    ...intro.map((paragraph) => `<p style="margin:0 0 12px">${escapeHtml(paragraph)}</p>`),
    `<p style="margin:0 0 16px">Review them, with everything each visitor typed: ${commandHtml(reviewCommand)}</p>`,
    '<ol style="margin:0 0 16px;padding-left:24px">',
    ...listed.map(entryHtml),
    '</ol>',
    ...(unlisted > 0 ? [`<p style="margin:0 0 16px">${escapeHtml(more)}</p>`] : []),
    `<p style="margin:0;font-size:14px;color:${colours.muted}">Digest made ${escapeHtml(formatUkTimeLong(createdAt))}.</p>`,
    '</body></html>',
    '',
  ].join('\n');

  return {
    id: input.id,
    createdAt,
    subject,
    text,
    html,
    /** The command that lists its requests, for a channel that says less (a push). */
    reviewCommand,
    webhookBody: {
      type: 'practice.flood_digest',
      digest: {
        id: input.id,
        created_at: createdAt.toISOString(),
        count,
        subject,
        text,
        bookings: requests.map((notice) => composeWebhookBody(notice).booking),
      },
    },
  };
}
