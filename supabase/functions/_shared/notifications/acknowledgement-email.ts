import { shortReference } from '../core/booking-reference.ts';
import { combiningMarkRanges, letterRanges, rangesClass } from '../core/letters-and-marks.ts';
import { practice } from '../content/practice.ts';
import * as visitorEmails from '../content/visitor-emails.ts';
import { formatUkTimeLong } from '../uk-time.ts';
import { colours, emailClosing, emailOpening, escapeHtml, headingFontStack } from './email-html.ts';
import { telUrl } from './reply-links.ts';

/**
 * The e-mail that tells a visitor their booking request arrived, in plain
 * text and HTML, every word from
 * visitorEmails.acknowledgement. Anyone can type a stranger's address into the form, so
 * of what the visitor typed it repeats only the first name, and only when that
 * is plainly a name: never the phone, the address, the Instagram handle or the
 * rest of the name, nor a "first name" that is a web address or an advert.
 */

interface AcknowledgementRequest {
  bookingId: string;
  fullName: string;
  createdAt: Date;
}

/**
 * Letters and marks, with the hyphen and apostrophes of names such as Jean-Luc
 * or O'Neil: the letters of the full name's rule, which leave out the blank
 * Hangul fillers that `\p{L}` counts, so that a "name" that shows nothing is
 * never repeated.
 */
const letter = rangesClass(letterRanges);
const plainName = new RegExp(
  `^[${letter}][${letter}${rangesClass(combiningMarkRanges)}'’-]*$`,
  'u',
);

/** A title before the name, not a name to greet by. */
const title = /^(?:mr|mrs|ms|miss|mx|dr|prof|sir|madam)\.?$/i;

/** Longer than any real first name; a longer word is not repeated. */
const maxFirstNameLength = 30;

/**
 * The first word of the full name when it is plainly a name, else undefined:
 * a word with digits, dots, slashes or symbols could carry a link or an advert
 * to whoever owns the address typed in the form.
 */
export function firstNameOf(fullName: string): string | undefined {
  const first = fullName.trim().split(/\s+/u)[0] ?? '';
  const length = [...first].length;
  // "Mr Ahmed": a title, then most likely the family name; "Hello," rather than "Hello Mr,".
  if (title.test(first)) return undefined;
  return length > 0 && length <= maxFirstNameLength && plainName.test(first) ? first : undefined;
}

export function composeAcknowledgement(request: AcknowledgementRequest) {
  const copy = visitorEmails.acknowledgement;
  const reference = shortReference(request.bookingId);
  const firstName = firstNameOf(request.fullName);
  const greeting = firstName === undefined ? copy.greetingWithoutName : copy.greeting(firstName);
  const received = formatUkTimeLong(request.createdAt);
  const { display: phoneDisplay } = practice.phone;
  const phoneHref = telUrl(practice.phone.international);

  const text = [
    greeting,
    '',
    copy.received,
    `${copy.reference(reference)} ${copy.sentAt(received)}`,
    '',
    copy.reply,
    '',
    copy.phone,
    '',
    copy.notYou,
    '',
    ...copy.signOff,
    '',
  ].join('\n');

  // The practice's number as a link wherever the copy names it.
  const phoneHtml = escapeHtml(copy.phone).replace(
    escapeHtml(phoneDisplay),
    phoneHref === undefined
      ? escapeHtml(phoneDisplay)
      : `<a href="${escapeHtml(phoneHref)}" style="color:${colours.heading};font-weight:bold;white-space:nowrap">${escapeHtml(phoneDisplay)}</a>`,
  );
  const paragraph = (html: string, extra = '') =>
    `<p style="margin:0 0 16px;font-size:16px;line-height:24px;color:${colours.ink}${extra}">${html}</p>`;
  const html = [
    ...emailOpening(copy.heading, copy.preview),
    `<tr><td bgcolor="${colours.heading}" style="padding:16px 20px;background-color:${colours.heading};border-radius:11px 11px 0 0;color:${colours.onHeading}">`,
    `<p style="margin:0;font-size:14px;line-height:20px;color:${colours.onHeading}">${escapeHtml(practice.name)}</p>`,
    `<h1 style="margin:4px 0 0;font-family:${headingFontStack};font-size:26px;font-weight:normal;line-height:32px;color:#ffffff">${escapeHtml(copy.heading)}</h1>`,
    '</td></tr>',
    // A long first name wraps rather than widening the e-mail past a phone's screen.
    `<tr><td style="padding:20px;text-align:left;overflow-wrap:anywhere;word-break:break-word">`,
    paragraph(escapeHtml(greeting)),
    paragraph(escapeHtml(copy.received)),
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px"><tr><td bgcolor="${colours.accentTint}" style="padding:12px 16px;background-color:${colours.accentTint};border-left:4px solid ${colours.accent};border-radius:0 8px 8px 0">`,
    `<p style="margin:0;font-size:14px;line-height:20px;color:${colours.muted}">${escapeHtml(copy.referenceLabel)}</p>`,
    `<p style="margin:0;font-size:22px;font-weight:bold;line-height:30px;letter-spacing:2px;color:${colours.ink}">${escapeHtml(reference)}</p>`,
    `<p style="margin:4px 0 0;font-size:14px;line-height:20px;color:${colours.muted}">${escapeHtml(copy.sentAt(received))}</p>`,
    '</td></tr></table>',
    paragraph(escapeHtml(copy.reply)),
    paragraph(phoneHtml),
    `<p style="margin:0 0 16px;font-size:14px;line-height:20px;color:${colours.muted}">${escapeHtml(copy.notYou)}</p>`,
    `<p style="margin:0;font-size:16px;line-height:24px;color:${colours.ink}">${copy.signOff.map(escapeHtml).join('<br>')}</p>`,
    ...emailClosing,
  ].join('\n');

  return { subject: copy.subject(reference), text, html };
}
