import { isUuid } from '../../supabase/functions/_shared/core/booking-row.ts';

/**
 * The request `npx hijama answer` is told to mark: its short reference (the
 * 8 hex digits of supabase/functions/_shared/core/booking-reference.ts, any case, as the e-mail and
 * `list` show it) or its full id. Either is a range of ids, since ids sort by
 * their hex digits: a short reference may match several requests.
 */
export interface RequestReference {
  /** As the practice reads it: the reference upper-case, an id lower-case. */
  shown: string;
  /** Whether it names one id, or the requests whose id begins with it. */
  kind: 'reference' | 'id';
  /** The lowest and the highest id it matches. */
  from: string;
  to: string;
}

const shortPattern = /^[0-9a-f]{8}$/i;

/** The reference typed, or undefined when it is neither a short reference nor an id. */
export function parseRequestReference(typed: string): RequestReference | undefined {
  const text = typed.trim();
  if (shortPattern.test(text)) {
    const digits = text.toLowerCase();
    return {
      shown: text.toUpperCase(),
      kind: 'reference',
      from: `${digits}-0000-0000-0000-000000000000`,
      to: `${digits}-ffff-ffff-ffff-ffffffffffff`,
    };
  }
  if (isUuid(text)) {
    const id = text.toLowerCase();
    return { shown: id, kind: 'id', from: id, to: id };
  }
  return undefined;
}
