/**
 * The booking request's rules and messages (specification, section 5), shared by
 * the form in the browser and by the server, whose check is the one that decides.
 * The database repeats the same limits as `check` constraints
 * (supabase/migrations), so a direct insert through hosted Supabase obeys them too.
 */

/** The fields a visitor fills in, in the order the form shows them. */
export const bookingFields = ['fullName', 'phone', 'email', 'instagram'] as const;

export type BookingField = (typeof bookingFields)[number];

/** What the visitor typed, untrimmed. */
export type BookingForm = Record<BookingField, string>;

export const emptyBookingForm: BookingForm = { fullName: '', phone: '', email: '', instagram: '' };

/** Longest accepted value of each field, counted in characters after trimming. */
export const maxLengths = {
  fullName: 100,
  phone: 30,
  email: 254,
  instagram: 60,
} as const satisfies Record<BookingField, number>;

/** Shortest accepted phone number, in characters (specification, section 9). */
export const minPhoneLength = 10;

/** Which rule a field broke. */
export type RuleFailure = 'required' | 'invalid' | 'tooLong';

export type BookingFailures = Partial<Record<BookingField, RuleFailure>>;

const phonePattern = /^[0-9 +()-]+$/;
// A local part, an @, a domain with at least one dot; no whitespace anywhere.
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The messages a visitor sees, one per field and broken rule. */
export const validationMessages = {
  fullName: {
    required: 'Full name is required',
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
    tooLong: `Please shorten your Instagram username to ${maxLengths.instagram} characters or fewer`,
  },
} as const satisfies Record<BookingField, Partial<Record<RuleFailure, string>>>;

function checkField(field: BookingField, raw: string): RuleFailure | undefined {
  const value = raw.trim();
  if (value.length > maxLengths[field]) return 'tooLong';
  switch (field) {
    case 'fullName':
      return value === '' ? 'required' : undefined;
    case 'phone':
      if (value === '') return 'required';
      return value.length >= minPhoneLength && phonePattern.test(value) ? undefined : 'invalid';
    case 'email':
      if (value === '') return 'required';
      return emailPattern.test(value) ? undefined : 'invalid';
    case 'instagram':
      return undefined;
  }
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
