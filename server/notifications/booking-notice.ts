import { formatUkTimeLong } from '../uk-time.ts';

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
  /** The handle as typed, trimmed; null when left empty. */
  instagram: string | null;
}

export interface BookingEmail {
  subject: string;
  text: string;
  html: string;
  /** The visitor, so that replying to the e-mail answers them; absent when the address is unusual. */
  replyTo?: { name: string; address: string };
}

// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const controlCharacters = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** One line of plain text: control characters become spaces. */
export function plainText(value: string): string {
  return value.replace(controlCharacters, ' ');
}

const htmlEntities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Safe in HTML text and in double- or single-quoted attribute values. */
export function escapeHtml(value: string): string {
  return plainText(value).replace(/[&<>"']/g, (character) => htmlEntities[character]!);
}

/** An Instagram user name: letters, digits, dots and underscores, at most 30. */
const instagramHandle = /^[A-Za-z0-9._]{1,30}$/;

/**
 * The profile link of what the visitor typed in the Instagram field: `@name`,
 * `name`, or a profile address on instagram.com. Undefined when it is not a
 * user name, so that nothing else ever becomes a link.
 */
export function instagramUrl(typed: string | null): string | undefined {
  if (typed === null) return undefined;
  let handle = typed.trim();
  const profile = /^(?:https?:\/\/)?(?:www\.)?instagram\.com\/([^/?#]+)\/?(?:[?#].*)?$/i.exec(
    handle,
  );
  if (profile) handle = profile[1]!;
  handle = handle.replace(/^@/, '');
  return instagramHandle.test(handle)
    ? `https://instagram.com/${encodeURIComponent(handle)}`
    : undefined;
}

/** A conservative address shape for Reply-To: no quotes, commas, brackets or spaces. */
const plainAddress =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

function mailtoUrl(address: string): string {
  const at = address.lastIndexOf('@');
  return `mailto:${encodeURIComponent(address.slice(0, at))}@${encodeURIComponent(address.slice(at + 1))}`;
}

/** `+44 (0) 1634 123 456` → `tel:+441634123456`: the trunk zero is dropped after a country code. */
function telUrl(phone: string): string {
  return `tel:${phone.replace(/\(0\)/g, '').replace(/[^0-9+]/g, '')}`;
}

const maxSubjectName = 60;

export function composeBookingEmail(notice: BookingNotice): BookingEmail {
  const received = formatUkTimeLong(notice.createdAt);
  const instagramLink = instagramUrl(notice.instagram);
  const name = plainText(notice.fullName);
  const shortName = name.length > maxSubjectName ? `${name.slice(0, maxSubjectName - 1)}…` : name;

  const instagramText =
    notice.instagram === null
      ? '(not given)'
      : `${plainText(notice.instagram)}${instagramLink ? ` (${instagramLink})` : ''}`;
  const text = [
    'New booking request',
    '',
    `Name:       ${name}`,
    `Phone:      ${plainText(notice.phone)}`,
    `E-mail:     ${plainText(notice.email)}`,
    `Instagram:  ${instagramText}`,
    `Received:   ${received}`,
    '',
    'The site promises a reply within 24 hours, by e-mail or Instagram message.',
    `Reference:  ${notice.id}`,
    '',
  ].join('\n');

  const link = (href: string, label: string) =>
    `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`;
  const instagramHtml =
    notice.instagram === null
      ? '<em>not given</em>'
      : instagramLink
        ? link(instagramLink, notice.instagram)
        : escapeHtml(notice.instagram);
  const row = (label: string, valueHtml: string) =>
    `<tr><th align="left" style="padding:4px 16px 4px 0">${label}</th><td style="padding:4px 0">${valueHtml}</td></tr>`;
  const html = [
    '<!doctype html>',
    '<html lang="en-GB"><head><meta charset="utf-8"><title>New booking request</title></head>',
    '<body style="font-family:sans-serif;font-size:15px;line-height:1.5">',
    '<h1 style="font-size:20px">New booking request</h1>',
    '<table role="presentation" style="border-collapse:collapse">',
    row('Name', escapeHtml(notice.fullName)),
    row('Phone', link(telUrl(notice.phone), notice.phone)),
    row('E-mail', link(mailtoUrl(notice.email), notice.email)),
    row('Instagram', instagramHtml),
    row('Received', escapeHtml(received)),
    '</table>',
    '<p>The site promises a reply within 24 hours, by e-mail or Instagram message.</p>',
    `<p style="color:#666;font-size:12px">Reference: ${escapeHtml(notice.id)}</p>`,
    '</body></html>',
    '',
  ].join('\n');

  const email: BookingEmail = { subject: `Booking request from ${shortName}`, text, html };
  if (plainAddress.test(notice.email)) {
    email.replyTo = { name, address: notice.email };
  }
  return email;
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
