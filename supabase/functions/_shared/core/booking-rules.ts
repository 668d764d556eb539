/**
 * The booking request's fields: the one description of each (its column, whether
 * it is required, its length in characters, the characters it may hold, how the
 * form asks for it) and the rules and messages built from it (specification,
 * section 5). The form, the server (whose check is the one that decides) and
 * everything that lists the fields read this table. The database repeats the
 * same rules as `check` constraints (supabase/migrations), so that a direct
 * insert through hosted Supabase obeys them too; server/db/field-rules-sql.test.ts
 * inserts rows generated from this table and fails if the two disagree.
 *
 * Lengths count characters (Unicode code points, as SQL's `char_length` does),
 * not UTF-16 units, and are measured after trimming.
 */

import {
  hasLetter,
  longestMarkRun,
  parseRanges,
  rangesClass,
  type CodePointRange,
} from './letters-and-marks.ts';

/** The fields a visitor fills in, in the order the form shows them. */
export const bookingFields = ['fullName', 'phone', 'email', 'instagram'] as const;

export type BookingField = (typeof bookingFields)[number];

/** What the visitor typed, untrimmed. */
export type BookingForm = Record<BookingField, string>;

export const emptyBookingForm: BookingForm = { fullName: '', phone: '', email: '', instagram: '' };

/** How the form asks for a field: the input's attributes. */
export interface FieldInput {
  type: 'text' | 'tel' | 'email';
  autoComplete: string;
  inputMode?: 'tel' | 'email';
  /** For a user name: a phone's keyboard does not "correct" it into a word. */
  autoCorrect?: 'off';
}

/** One field of the table. */
export interface FieldRule {
  /** The column of `public.bookings` (and of the REST API) that stores it. */
  column: string;
  /** A required field may not be empty; an optional one is stored as null when empty. */
  required: boolean;
  /** Shortest accepted value, in characters; any non-empty value when unset. */
  minLength?: number;
  /** Longest accepted value, in characters. */
  maxLength: number;
  /** The only characters allowed, when the field is restricted to a few. */
  allowedCharacters?: RegExp;
  /** Digits a value needs besides its other characters. */
  minDigits?: number;
  /** The value's shape, beyond its characters. */
  shape?: RegExp;
  /** A value needs a letter of some script (letters-and-marks.ts), not only symbols or blanks. */
  needsLetter?: boolean;
  /** Most combining marks (accents, vowel signs) allowed one after another on a letter. */
  maxMarksInARow?: number;
  /**
   * The zero-width non-joiner and joiner (U+200C, U+200D) allowed, of all hidden
   * characters: Persian and Urdu keyboards put them inside words, and emoji
   * sequences hold them.
   */
  joinersAllowed?: boolean;
  /**
   * Rewrites the trimmed value into the form it is stored in, before any rule
   * is checked; its result is trimmed again.
   */
  normalise?: (trimmed: string) => string;
  input: FieldInput;
}

/**
 * White space trimmed from both ends of every field: exactly the characters that
 * JavaScript's `String.prototype.trim` removes, spelled out so that SQL's
 * `btrim` (supabase/migrations) removes the same ones.
 */
export const trimmedSpace =
  '\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';

/**
 * Characters no person types and no field may hold, as ranges of code points:
 * Unicode's control (Cc) and format (Cf) characters, such as BEL, ESC, the C1
 * controls, zero-width spaces and the right-to-left override, and the line and
 * paragraph separators. Spelled out rather than `\p{Cf}` so that the browser,
 * the server and SQL agree whatever Unicode version each knows; a test checks
 * that they cover `\p{Cc}` and `\p{Cf}` of this runtime.
 */
export const hiddenCharacterRanges: readonly CodePointRange[] = parseRanges(`
0000-001F 007F-009F 00AD 0600-0605 061C 06DD 070F 0890-0891 08E2 180E 200B-200F 2028-202E 2060-2064
2066-206F FEFF FFF9-FFFB 110BD 110CD 13430-1343F 1BCA0-1BCA3 1D173-1D17A E0001 E0020-E007F
`);

const hiddenCharacter = new RegExp(`[${rangesClass(hiddenCharacterRanges)}]`, 'u');
const spaceCharacter = new RegExp(`[${trimmedSpace}]`);

/**
 * The value as every side stores it: trimmed of `trimmedSpace`, each end read
 * once. (A pattern for the trailing run, `[…]+$`, is tried again from every
 * space of a run inside the value: a 16 KB field took a fifth of a second,
 * during which the server answered nobody.) Every such space is one UTF-16 unit.
 */
export function trimField(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && spaceCharacter.test(value[start]!)) start += 1;
  while (end > start && spaceCharacter.test(value[end - 1]!)) end -= 1;
  return value.slice(start, end);
}

/**
 * The value of `field` as it is stored: trimmed, then rewritten by the field's
 * `normalise`, if any, and trimmed again.
 */
export function storedValue(field: BookingField, raw: string): string {
  const rule: FieldRule = bookingFieldRules[field];
  const value = trimField(raw);
  return rule.normalise ? trimField(rule.normalise(value)) : value;
}

export function hasHiddenCharacter(value: string): boolean {
  return hiddenCharacter.test(value);
}

/** An Instagram user name: letters, digits, dots and underscores, at most 30. */
export const instagramUserName = /^[A-Za-z0-9._]{1,30}$/;

/**
 * A profile's address as visitors paste it from the app: with or without the
 * scheme and `www.`, the app's "share profile" `/profilecard`, a trailing
 * slash, and a query such as `?igsh=…` (the share tracker). `[\s\S]` rather
 * than `.` so that the query may hold any character, as in SQL, where `.`
 * matches line breaks too.
 */
const instagramProfileAddress =
  /^(?:https?:\/\/)?(?:www\.|m\.)?instagram\.com\/([^/?#]+)(?:\/profilecard)?\/?(?:[?#][\s\S]*)?$/i;

/**
 * The Instagram field as stored: a profile's address reduced to its user
 * name, one leading `@` dropped, and a user name in lowercase (Instagram's
 * names are case-insensitive), so that `@Amina.K`, `amina.k` and
 * `https://www.instagram.com/amina.k/` are one value. Anything else is kept as
 * typed. The database does the same (app_private.instagram_handle, in
 * supabase/migrations/20261208000000_instagram_profile_card.sql).
 */
export function normaliseInstagram(trimmed: string): string {
  let handle = instagramProfileAddress.exec(trimmed)?.[1] ?? trimmed;
  if (handle.length > 1 && handle.startsWith('@')) handle = handle.slice(1);
  return instagramUserName.test(handle) ? handle.toLowerCase() : handle;
}

/**
 * `local@domain`: dot-separated atoms of RFC 5322's `atext` before the @, and
 * after it at least two dot-separated labels of letters, digits and inner hyphens.
 * The database's twin is app_private.is_plain_email
 * (supabase/migrations/20261202000100_plain_email.sql).
 */
const emailAtom = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const domainLabel = '[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
export const plainEmailAddress = new RegExp(
  `^${emailAtom}(?:\\.${emailAtom})*@${domainLabel}(?:\\.${domainLabel})+$`,
);

/**
 * What a phone number brings when pasted or typed on a phone, that a reader
 * sees as the plain characters the field allows: iOS wraps a copied number in
 * direction marks (U+202A … U+202C) and spaces it with no-break spaces, word
 * processors turn hyphens into dashes, an Arabic or Persian keyboard types ٠–٩
 * or ۰–۹. Each is stored as its plain twin (the marks as nothing), so the
 * visitor is not told that a number they see as valid is not. The database
 * does the same (app_private.phone_number, in
 * supabase/migrations/20261204000000_typed_on_phones.sql).
 */
const phoneDirectionMarks = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const pastedSpaces =
  '\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000';
const pastedDashes = '\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d';
const digitsFrom = (zero: number) =>
  String.fromCharCode(...Array.from({ length: 10 }, (_, n) => zero + n));
/** Arabic-Indic, Extended Arabic-Indic and full-width digits, each run from 0 to 9. */
const otherDigits = [0x0660, 0x06f0, 0xff10].map(digitsFrom).join('');
const plainPhoneCharacter = new Map<string, string>([
  ...[...pastedSpaces].map((character) => [character, ' '] as const),
  ...[...pastedDashes].map((character) => [character, '-'] as const),
  ...[...otherDigits].map((character, index) => [character, String(index % 10)] as const),
  ['\uff0b', '+'],
  ['\uff08', '('],
  ['\uff09', ')'],
]);

/** The phone field as stored: `phoneDirectionMarks` dropped, each other lookalike its plain twin. */
export function normalisePhone(trimmed: string): string {
  return Array.from(
    trimmed.replace(phoneDirectionMarks, ''),
    (character) => plainPhoneCharacter.get(character) ?? character,
  ).join('');
}

/** Shortest accepted phone number, in characters (specification, section 9). */
export const minPhoneLength = 10;

export const bookingFieldRules = {
  fullName: {
    column: 'full_name',
    required: true,
    maxLength: 100,
    // A name of Hangul fillers, braille blanks or emoji alone shows no name.
    needsLetter: true,
    // Arabic's shadda with a vowel sign and Vietnamese's two accents are 2; a
    // tower of marks stacked to cover the text around it is dozens.
    maxMarksInARow: 4,
    joinersAllowed: true,
    input: { type: 'text', autoComplete: 'name' },
  },
  phone: {
    column: 'phone',
    required: true,
    minLength: minPhoneLength,
    maxLength: 30,
    // Digits, spaces, plus, parentheses or hyphens (specification, section 5).
    allowedCharacters: /^[0-9 +()-]*$/,
    // `----------` has ten allowed characters but is no number; the shortest UK numbers have 7 digits.
    minDigits: 7,
    normalise: normalisePhone,
    input: { type: 'tel', autoComplete: 'tel', inputMode: 'tel' },
  },
  email: {
    column: 'email',
    required: true,
    maxLength: 254,
    // A bare address and nothing else: the acknowledgement is mailed to it, and
    // a display name, comment, quoted part, group or list would let one inbox be
    // spelled many ways, or carry text to it. In ASCII, so that SQL's lower()
    // folds it as every side does whatever the database's locale: a domain
    // with other letters is typed in its xn-- form.
    shape: plainEmailAddress,
    input: { type: 'email', autoComplete: 'email', inputMode: 'email' },
  },
  instagram: {
    column: 'instagram',
    required: false,
    maxLength: 60,
    normalise: normaliseInstagram,
    input: { type: 'text', autoComplete: 'off', autoCorrect: 'off' },
  },
} as const satisfies Record<BookingField, FieldRule>;

type Rules = typeof bookingFieldRules;

/** The column that stores a field. */
export type ColumnOf<F extends BookingField> = Rules[F]['column'];

/** Every field's column, in the form's order. */
export type BookingFieldColumn = ColumnOf<BookingField>;

export const bookingFieldColumns = bookingFields.map(
  (field) => bookingFieldRules[field].column,
) as readonly BookingFieldColumn[];

export function isRequired(field: BookingField): boolean {
  return bookingFieldRules[field].required;
}

/** Longest accepted value of each field, in characters after trimming. */
export const maxLengths = Object.fromEntries(
  bookingFields.map((field) => [field, bookingFieldRules[field].maxLength]),
) as { [F in BookingField]: Rules[F]['maxLength'] };

/** Which rule a field broke. */
export type RuleFailure = 'required' | 'invalid' | 'tooLong';

export type BookingFailures = Partial<Record<BookingField, RuleFailure>>;

/** The messages a visitor sees, one per field and broken rule. */
export const validationMessages = {
  fullName: {
    required: 'Full name is required',
    invalid: 'Please type your name again, in letters and without hidden characters',
    tooLong: `Please shorten your name to ${maxLengths.fullName} characters or fewer`,
  },
  phone: {
    required: 'Phone number is required',
    invalid: 'Please enter a valid phone number',
    tooLong: 'Please enter a valid phone number',
  },
  email: {
    required: 'Email is required',
    invalid: 'Please enter a valid email address',
    tooLong: 'Please enter a valid email address',
  },
  instagram: {
    invalid: 'Your Instagram username contains a hidden character; please type it again',
    tooLong: `Please shorten your Instagram username to ${maxLengths.instagram} characters or fewer`,
  },
} as const satisfies Record<BookingField, Partial<Record<RuleFailure, string>>>;

/** The rule `raw` breaks as the value of `field`, if any. */
export function checkField(field: BookingField, raw: string): RuleFailure | undefined {
  const rule: FieldRule = bookingFieldRules[field];
  const value = storedValue(field, raw);
  if (value === '') return rule.required ? 'required' : undefined;
  if (hasHiddenCharacter(rule.joinersAllowed ? value.replace(/[\u200c\u200d]/g, '') : value)) {
    return 'invalid';
  }
  // In characters (code points), as SQL's char_length counts them.
  const length = [...value].length;
  if (length > rule.maxLength) return 'tooLong';
  if (rule.minLength !== undefined && length < rule.minLength) return 'invalid';
  if (rule.allowedCharacters && !rule.allowedCharacters.test(value)) return 'invalid';
  const digits = value.replace(/[^0-9]/g, '').length;
  if (rule.minDigits !== undefined && digits < rule.minDigits) return 'invalid';
  if (rule.shape && !rule.shape.test(value)) return 'invalid';
  if (rule.needsLetter && !hasLetter(value)) return 'invalid';
  if (rule.maxMarksInARow !== undefined && longestMarkRun(value) > rule.maxMarksInARow) {
    return 'invalid';
  }
  return undefined;
}

/** Checks every field; an empty result means the request may be sent. */
export function validateBooking(form: BookingForm): BookingFailures {
  const failures: BookingFailures = {};
  for (const field of bookingFields) {
    const failure = checkField(field, form[field]);
    if (failure) failures[field] = failure;
  }
  return failures;
}

/** The message for one broken rule. */
export function messageFor(field: BookingField, failure: RuleFailure): string {
  const messages: Partial<Record<RuleFailure, string>> = validationMessages[field];
  return messages[failure] ?? 'Please check this field';
}

export function hasFailures(failures: BookingFailures): boolean {
  return Object.keys(failures).length > 0;
}
