import { instagramUserName, normaliseInstagram } from '../core/booking-rules.ts';
import { plainText } from './email-html.ts';
/**
 * The links with which the practitioner answers a visitor from a phone: call,
 * text, WhatsApp, e-mail and Instagram. Each is built from what the visitor typed, so
 * nothing but digits (and a leading +) ever reaches a phone link, and an
 * e-mail address, subject and body are percent-encoded.
 */

/**
 * `scheme:` and the number as a phone dials it: digits and a leading `+`, the
 * `(0)` of `+44 (0) 1634…` dropped (a leading one kept as the 0 it is), and
 * the UK's code as visitors write it made dialable: its trunk 0 kept
 * (`+44 07700…`, which networks refuse) or without its `+` (`44 7700…`, dialled
 * as a national number). Undefined when there is no digit to dial.
 */
function phoneUrl(scheme: 'tel' | 'sms', phone: string): string | undefined {
  const digits = withoutTrunkZero(phone).replace(/[^0-9+]/g, '');
  const number = (digits.slice(0, 1) + digits.slice(1).replaceAll('+', ''))
    .replace(/^(?:\+|00)440/, '+44')
    .replace(/^44(?=\d{10}$)/, '+44');
  return /\d/.test(number) ? `${scheme}:${number}` : undefined;
}

/** `+44 (0) 1634…` → `+44 1634…`; `(0)7700…` → `07700…`. */
function withoutTrunkZero(phone: string): string {
  return phone.replace(/^\s*\(0\)/, '0').replace(/\(0\)/g, '');
}

/** `+44 (0) 1634 123 456` → `tel:+441634123456`. */
export const telUrl = (phone: string) => phoneUrl('tel', phone);

/** `07700 900123` → `sms:07700900123`. */
export const smsUrl = (phone: string) => phoneUrl('sms', phone);

/**
 * The number without its spaces, brackets, dots and dashes, and without the
 * `(0)` of `+44 (0) 1634…`; undefined when it holds anything else.
 */
export function compactPhone(phone: string): string | undefined {
  if (!/^[0-9+()\s.-]+$/.test(phone)) return undefined;
  return withoutTrunkZero(phone).replace(/[\s().-]/g, '');
}

/**
 * A UK mobile number in any usual form (`07700 900123`, `+44 7700 900123`,
 * `0044 7700 900123`, `+44 (0) 7700 900123`, `447700900123`) → its ten digits
 * after the country code. Ofcom's mobile ranges only: 071–075, 077–079 and
 * 07624; not 070 (personal numbers) or the rest of 076 (pagers). Anything else,
 * landlines included, is undefined.
 */
function ukMobileDigits(phone: string): string | undefined {
  const digits = /^(?:(?:\+|00)?440?|0)(7\d{9})$/.exec(compactPhone(phone) ?? '')?.[1];
  if (digits === undefined) return undefined;
  const mobileRange = /^7(?:[1-57-9]|624)/;
  return mobileRange.test(digits) ? digits : undefined;
}

/** A chat on WhatsApp with a UK mobile (`https://wa.me/447700900123`); undefined for any other number. */
export function whatsAppUrl(phone: string): string | undefined {
  const digits = ukMobileDigits(phone);
  return digits === undefined ? undefined : `https://wa.me/44${digits}`;
}

/**
 * `mailto:` with the address percent-encoded either side of the `@`, and an
 * optional subject and body (RFC 6068: line breaks as CRLF, `%0D%0A`).
 */
export function mailtoUrl(address: string, draft?: { subject: string; body: string }): string {
  const at = address.lastIndexOf('@');
  const url = `mailto:${encodeURIComponent(address.slice(0, at))}@${encodeURIComponent(address.slice(at + 1))}`;
  if (!draft) return url;
  const body = draft.body.replace(/\r?\n/g, '\r\n');
  return `${url}?subject=${strictEncode(draft.subject)}&body=${strictEncode(body)}`;
}

/** encodeURIComponent, and the marks it leaves (`!'()*`), which a mail client might take for the end of a link in plain text. */
function strictEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (mark) => `%${mark.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * What visitors type in the optional field to say they have no account: taken
 * as not given (booking-notice.ts), never as a name to message, which would
 * send the practitioner's reply, with the booking's details, to a stranger.
 */
const noAccount =
  /^@?(?:none|no|nope|nil|null|nothing|n|na|n\.a|n\/a|x+|[._-]+|no (?:insta(?:gram)?|ig|account)|(?:i )?(?:don['’]?t|do not) (?:have|use)(?: (?:one|it|any|insta(?:gram)?|ig))?)[.!]*$/i;

/** The Instagram field as given: null when empty, or when it says there is none. */
export function givenInstagram(stored: string | null): string | null {
  return stored === null || noAccount.test(stored.trim()) ? null : stored;
}

/** A dot first, last or twice in a row: a name Instagram gives nobody. */
const impossibleName = /^\.|\.$|\.\./;

/**
 * The user name in the Instagram field, by the rule that stores it
 * (supabase/functions/_shared/core/booking-rules.ts): rows stored before that rule may still hold `@name`
 * or a profile's address. Undefined when it is not a user name, so that
 * nothing else ever becomes a link.
 */
function instagramHandle(stored: string | null): string | undefined {
  if (stored === null) return undefined;
  const handle = normaliseInstagram(stored.trim());
  return instagramUserName.test(handle) && !impossibleName.test(handle) ? handle : undefined;
}

/** The profile's address, `https://instagram.com/<user name>`. */
export function instagramUrl(stored: string | null): string | undefined {
  const handle = instagramHandle(stored);
  return handle === undefined ? undefined : `https://instagram.com/${encodeURIComponent(handle)}`;
}

/** A chat with the user on Instagram, `https://ig.me/m/<user name>`: the app opens the conversation. */
export function instagramMessageUrl(stored: string | null): string | undefined {
  const handle = instagramHandle(stored);
  return handle === undefined ? undefined : `https://ig.me/m/${encodeURIComponent(handle)}`;
}

/** The Instagram field as the e-mail shows it: `@user name`, or what was typed when it is none. */
export function instagramShown(stored: string): string {
  const handle = instagramHandle(stored);
  return handle === undefined ? plainText(stored) : `@${handle}`;
}
