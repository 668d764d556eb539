import { compactPhone, whatsAppUrl } from './reply-links.ts';

/**
 * Which ways of answering a phone number allows. A text message or a WhatsApp
 * chat sent to a landline goes nowhere, and the practice cannot tell it did:
 * so the e-mail offers them only where they can reach someone.
 *
 * The rule:
 * - a UK mobile (07…, +44 7…; reply-links.ts knows Ofcom's ranges): call, text
 *   and WhatsApp;
 * - any other UK number (01…, 02…, 03…, 08…, 070 personal numbers, 076
 *   pagers, with or without +44): call only;
 * - a number outside the UK, written with its country code (`+33 6…`,
 *   `0033 6…`): call and WhatsApp. Which of another country's numbers are
 *   mobiles is not known here, and WhatsApp itself says when a number has no
 *   account; a text abroad costs the practice and may reach a landline, so no
 *   text;
 * - anything else (no country code and no UK trunk zero): call only.
 */
type PhoneKind = 'uk mobile' | 'uk other' | 'outside the uk' | 'unknown';

/** The country code and number of one written with an international prefix, `+` or `00`. */
function international(phone: string): string | undefined {
  // E.164: a country code and number of at most 15 digits; 8 is the shortest in use.
  return /^(?:\+|00)([1-9]\d{7,14})$/.exec(compactPhone(phone) ?? '')?.[1];
}

export function phoneKind(phone: string): PhoneKind {
  if (whatsAppUrl(phone) !== undefined) return 'uk mobile';
  const digits = international(phone);
  if (digits !== undefined) return digits.startsWith('44') ? 'uk other' : 'outside the uk';
  const compact = phone.replace(/[\s().-]/g, '');
  return /^0[1-9]\d{8,9}$/.test(compact) ? 'uk other' : 'unknown';
}

/**
 * A WhatsApp chat with the number (`https://wa.me/<country code and number>`),
 * for a UK mobile or a number outside the UK; undefined for any other.
 */
export function whatsAppChatUrl(phone: string): string | undefined {
  switch (phoneKind(phone)) {
    case 'uk mobile':
      return whatsAppUrl(phone);
    case 'outside the uk':
      return `https://wa.me/${international(phone)!}`;
    default:
      return undefined;
  }
}
