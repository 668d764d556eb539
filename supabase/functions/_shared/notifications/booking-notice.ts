import { answerLink } from '../core/answer-link.ts';
import { shortReference } from '../core/booking-reference.ts';
import { bookingFieldColumns, plainEmailAddress } from '../core/booking-rules.ts';
import { practice } from '../content/practice.ts';
import * as visitorEmails from '../content/visitor-emails.ts';
import { formatUkTimeLong } from '../uk-time.ts';
import {
  breakAnywhere,
  buttonHtml,
  colours,
  emailClosing,
  emailOpening,
  escapeHtml,
  headingFontStack,
  plainName,
  plainText,
} from './email-html.ts';
import { phoneKind, whatsAppChatUrl } from './phone-kind.ts';
import {
  givenInstagram,
  instagramMessageUrl,
  instagramShown,
  instagramUrl,
  mailtoUrl,
  smsUrl,
  telUrl,
} from './reply-links.ts';

/**
 * What the practice receives about a new booking request: the e-mail (plain
 * text and HTML) and the webhook's JSON. Every value comes from a visitor, so
 * it is treated as text everywhere: HTML-escaped in the HTML part, control
 * characters (line breaks included) replaced in the plain text and the subject,
 * and percent-encoded inside links.
 */

/** A stored booking request, as the notifier reads it. */
export interface BookingNotice {
  id: string;
  createdAt: Date;
  fullName: string;
  phone: string;
  email: string;
  /** The handle as stored: a user name (20261201000000_bookings.sql); null when left empty. */
  instagram: string | null;
  /**
   * The signed token of the link that marks the request answered
   * (20261201000200_notifications.sql), made by the query that reads the
   * request (noticeWithAnswerTokenSql); absent where it made none.
   */
  answerToken?: string;
}

/** A booking's columns as the notifier's queries select them. */
export interface BookingNoticeRow {
  booking_id: string;
  created_at: string;
  full_name: string;
  phone: string;
  email: string;
  instagram: string | null;
  /** Where the query selects it (noticeWithAnswerTokenSql). */
  answer_token?: string | null;
}

/**
 * The select list of a BookingNoticeRow over the `bookings` row `alias`: the
 * one list of the columns that the notifier, the e-mails, the summaries and
 * the reminders read, taken from the field table.
 */
export function noticeColumnsSql(alias: string): string {
  return [
    `${alias}.id::text as booking_id`,
    `to_json(${alias}.created_at) #>> '{}' as created_at`,
    ...bookingFieldColumns.map((column) => `${alias}.${column}`),
  ].join(', ');
}

/**
 * noticeColumnsSql and the token of the request's "Mark as answered" link:
 * signed by the query, where the key is (app_private.answer_token).
 */
export function noticeWithAnswerTokenSql(alias: string): string {
  return `${noticeColumnsSql(alias)}, app_private.answer_token(${alias}.id) as answer_token`;
}

export function noticeFromRow(row: BookingNoticeRow): BookingNotice {
  return {
    id: row.booking_id,
    createdAt: new Date(row.created_at),
    fullName: row.full_name,
    phone: row.phone,
    email: row.email,
    instagram: givenInstagram(row.instagram),
    ...(row.answer_token ? { answerToken: row.answer_token } : {}),
  };
}

/** The site's promise, practice.replyWithinHours, in milliseconds. */
export const replyWithinMs = practice.replyWithinHours * 3_600_000;

/** When the site's promise runs out: the request's arrival plus the promised hours (elapsed time, across clock changes). */
export function replyBy(createdAt: Date): Date {
  return new Date(createdAt.getTime() + replyWithinMs);
}

/** Whether a request received at `createdAt`, still waiting at `now`, is past its reply-by time. */
export function isLate(createdAt: Date, now: Date): boolean {
  return now.getTime() >= replyBy(createdAt).getTime();
}

/** "Phone 07700 900123 (tel:07700900123)": the number as typed, and its link where it has one. */
export function phoneLine(phone: string): string {
  const tel = telUrl(phone);
  return `Phone ${plainText(phone)}${tel ? ` (${tel})` : ''}`;
}

/** "Phone …, e-mail …, Instagram …": every way to reach the visitor in one plain line, the phone's as given. */
export function contactLine(notice: BookingNotice, phone = phoneLine(notice.phone)): string {
  return [
    phone,
    `e-mail ${plainText(notice.email)}`,
    ...(notice.instagram === null ? [] : [`Instagram ${instagramShown(notice.instagram)}`]),
  ].join(', ');
}

/** "Amina Khan, ref 5F0C2A8E": how a line of plain text names a request. */
export function nameAndReference(notice: BookingNotice): string {
  return `${plainName(notice.fullName)}, ref ${shortReference(notice.id)}`;
}

/** One way to answer the visitor: a button in the HTML part, a labelled line in the plain text. */
export interface ReplyAction {
  label: string;
  href: string;
}

/**
 * The ways to answer a request, the visitor's preferred one first: Instagram
 * when they gave a handle (the form offers that field for a reply by Instagram
 * message), else e-mail. A text message only to a UK mobile, a WhatsApp chat
 * only to a UK mobile or a number outside the UK (phone-kind.ts says why).
 */
export function replyActions(notice: BookingNotice): ReplyAction[] {
  const reference = shortReference(notice.id);
  const draft = visitorEmails.replyDraft;
  const name = plainText(notice.fullName);
  const actions: (ReplyAction | undefined)[] = [
    action('Message on Instagram', instagramMessageUrl(notice.instagram)),
    action('Open Instagram profile', instagramUrl(notice.instagram)),
    {
      label: 'Reply by e-mail',
      href: mailtoUrl(notice.email, {
        subject: draft.subject(reference),
        body: draft.body(name, reference),
      }),
    },
    action('Call', telUrl(notice.phone)),
    action('WhatsApp', whatsAppChatUrl(notice.phone)),
    action(
      'Text message (SMS)',
      phoneKind(notice.phone) === 'uk mobile' ? smsUrl(notice.phone) : undefined,
    ),
  ];
  return actions.filter((entry) => entry !== undefined);
}

function action(label: string, href: string | undefined): ReplyAction | undefined {
  return href === undefined ? undefined : { label, href };
}

const maxSubjectName = 60;
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * The link that marks the request answered (supabase/functions/_shared/core/answer-link.ts) on the
 * site at `siteUrl` (SITE_URL): one, when the notifier's query gave the request's token, else none.
 */
export function markAnsweredActions(notice: BookingNotice, siteUrl: string): ReplyAction[] {
  return notice.answerToken
    ? [{ label: 'Mark as answered', href: answerLink(siteUrl, notice.answerToken) }]
    : [];
}

/** An action as a line of plain text: `Call: tel:01634123456`. */
export function actionLine({ label, href }: ReplyAction): string {
  return `${label}: ${href}`;
}

/** The e-mail's subject, which is also the push's title. */
export function bookingSubject(notice: BookingNotice): string {
  // Cut between the characters a reader sees, never inside one (an emoji, a flag, a letter and its accent).
  const name = Array.from(graphemes.segment(notice.fullName), ({ segment }) => segment);
  const shortName =
    name.length > maxSubjectName
      ? `${name.slice(0, maxSubjectName - 1).join('')}…`
      : notice.fullName;
  return `Booking request from ${headerText(shortName)}`;
}

/**
 * A visitor's text in a header (the subject, the reply-to name): plain, and
 * never taken for an encoded word (`=?utf-8?B?…?=`), which mail clients decode
 * into text of the visitor's choosing (characters the name rules refuse
 * included). The invisible word joiner makes the mailer encode the header, so
 * that it reads as typed.
 */
function headerText(value: string): string {
  return plainName(value).replaceAll('=?', '=\u2060?');
}

export function composeBookingEmail(notice: BookingNotice, siteUrl: string) {
  const received = formatUkTimeLong(notice.createdAt);
  const deadline = formatUkTimeLong(replyBy(notice.createdAt));
  const reference = shortReference(notice.id);
  const instagramLink = instagramUrl(notice.instagram);
  const actions = replyActions(notice);
  const markAnswered = markAnsweredActions(notice, siteUrl);
  const afterAnswering = 'Once you have answered:';
  const name = plainName(notice.fullName);
  const promise = `The site promises a reply within ${practice.replyWithinHours} hours, by e-mail or Instagram message.`;
  const preference =
    notice.instagram === null
      ? undefined
      : `prefers a reply by Instagram message (${instagramShown(notice.instagram)}).`;

  const instagramText =
    notice.instagram === null
      ? '(not given)'
      : `${instagramShown(notice.instagram)}${instagramLink ? ` (${instagramLink})` : ''}`;
  const text = [
    `New booking request from ${name}`,
    '',
    `Reply by:   ${deadline}`,
    `Reference:  ${reference}`,
    ...(preference ? ['', `${name} ${preference}`] : []),
    '',
    'Answer in one tap:',
    ...actions.map(actionLine),
    ...markAnswered.flatMap((mark) => ['', afterAnswering, actionLine(mark)]),
    '',
    `Name:       ${name}`,
    `Phone:      ${plainText(notice.phone)}`,
    `E-mail:     ${plainText(notice.email)}`,
    `Instagram:  ${instagramText}`,
    `Received:   ${received}`,
    '',
    promise,
    `Booking id: ${notice.id}`,
    '',
  ].join('\n');

  const link = (href: string | undefined, label: string) =>
    href === undefined
      ? escapeHtml(label)
      : `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`;
  const instagramHtml =
    notice.instagram === null
      ? '<em>not given</em>'
      : link(instagramLink, instagramShown(notice.instagram));
  const row = (label: string, valueHtml: string) =>
    `<tr><th align="left" valign="top" style="padding:6px 16px 6px 0;color:${colours.muted};font-weight:normal;white-space:nowrap">${label}</th><td style="padding:6px 0">${valueHtml}</td></tr>`;
  const html = [
    ...emailOpening('New booking request', `Reply by ${deadline} · ref. ${reference}`),
    `<tr><td bgcolor="${colours.heading}" style="padding:16px 20px;background-color:${colours.heading};border-radius:11px 11px 0 0;color:${colours.onHeading};${breakAnywhere}">`,
    `<p style="margin:0;font-size:14px;line-height:20px;color:${colours.onHeading}">${escapeHtml(practice.name)} · New booking request</p>`,
    `<h1 style="margin:4px 0 0;font-family:${headingFontStack};font-size:26px;font-weight:normal;line-height:32px;color:#ffffff">${escapeHtml(notice.fullName)}</h1>`,
    '</td></tr>',
    `<tr><td style="padding:20px;${breakAnywhere}">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px"><tr><td bgcolor="${colours.accentTint}" style="padding:12px 16px;background-color:${colours.accentTint};border-left:4px solid ${colours.accent};border-radius:0 8px 8px 0">`,
    `<p style="margin:0;font-size:14px;line-height:20px;color:${colours.muted}">Reply by</p>`,
    `<p style="margin:0;font-size:18px;font-weight:bold;line-height:26px">${escapeHtml(deadline)}</p>`,
    `<p style="margin:8px 0 0;font-size:14px;line-height:20px;color:${colours.muted}">Reference <strong style="color:${colours.ink};letter-spacing:1px">${escapeHtml(reference)}</strong></p>`,
    '</td></tr></table>',
    ...(preference
      ? [
          `<p style="margin:0 0 16px;font-size:16px;line-height:24px"><strong>${escapeHtml(notice.fullName)}</strong> ${escapeHtml(preference)}</p>`,
        ]
      : []),
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">',
    ...actions.map((entry, index) => buttonHtml(entry, index === 0)),
    '</table>',
    ...markAnswered.flatMap((mark) => [
      `<p style="margin:8px 0 8px;font-size:14px;line-height:20px;color:${colours.muted}">${escapeHtml(afterAnswering)}</p>`,
      '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">',
      buttonHtml(mark, false),
      '</table>',
    ]),
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 0;border-top:1px solid ${colours.border};border-collapse:collapse;font-size:16px;line-height:24px">`,
    row('Name', escapeHtml(notice.fullName)),
    row('Phone', link(telUrl(notice.phone), notice.phone)),
    row('E-mail', link(mailtoUrl(notice.email), notice.email)),
    row('Instagram', instagramHtml),
    row('Received', escapeHtml(received)),
    '</table>',
    `<p style="margin:16px 0 0;font-size:14px;line-height:20px;color:${colours.muted}">${escapeHtml(promise)}<br>Booking id: ${escapeHtml(notice.id)}</p>`,
    ...emailClosing,
  ].join('\n');

  return {
    subject: bookingSubject(notice),
    text,
    html,
    // The visitor, so that replying to the e-mail answers them; none when the
    // address is unusual: a request stored before the field took plain
    // addresses only may hold a name or a list.
    ...(plainEmailAddress.test(notice.email)
      ? { replyTo: { name: headerText(notice.fullName), address: notice.email } }
      : {}),
  };
}

/** The JSON body of the webhook: the same for every attempt, so a receiver can recognise a repeat by its id. */
export function composeWebhookBody(notice: BookingNotice) {
  return {
    type: 'booking.created',
    booking: {
      id: notice.id,
      created_at: notice.createdAt.toISOString(),
      received_uk: formatUkTimeLong(notice.createdAt),
      full_name: notice.fullName,
      phone: notice.phone,
      email: notice.email,
      instagram: notice.instagram,
      instagram_url: instagramUrl(notice.instagram) ?? null,
    },
  };
}
