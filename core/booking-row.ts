import type { BookingForm } from './booking-rules.ts';

/** One row of the `bookings` table as the browser sends it (PostgREST column names). */
export interface BookingRow {
  /** Generated in the browser so that a retry after a lost answer cannot store a second row. */
  id: string;
  full_name: string;
  phone: string;
  email: string;
  /** The handle as typed, trimmed; null when left empty. */
  instagram: string | null;
}

/** The columns an anonymous caller may send. */
export const bookingColumns = ['id', 'full_name', 'phone', 'email', 'instagram'] as const;

/** Turns what the visitor typed into the row to store: trimmed, empty Instagram as null. */
export function toBookingRow(form: BookingForm, id: string): BookingRow {
  const instagram = form.instagram.trim();
  return {
    id,
    full_name: form.fullName.trim(),
    phone: form.phone.trim(),
    email: form.email.trim(),
    instagram: instagram === '' ? null : instagram,
  };
}

/** The reverse mapping, used by the server to check a row with the form's rules. */
export function toBookingForm(row: Omit<BookingRow, 'id'>): BookingForm {
  return {
    fullName: row.full_name,
    phone: row.phone,
    email: row.email,
    instagram: row.instagram ?? '',
  };
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}
