import {
  bookingFieldColumns,
  bookingFieldRules,
  bookingFields,
  storedValue,
  type BookingField,
  type BookingForm,
  type ColumnOf,
} from './booking-rules.ts';

/**
 * One row of the `bookings` table as the browser sends it (PostgREST column
 * names), derived from the field table: a required field is text, an optional
 * one text or null.
 */
export type BookingRow = {
  /** Generated in the browser so that a retry after a lost answer cannot store a second row. */
  id: string;
} & {
  [F in BookingField as ColumnOf<F>]: (typeof bookingFieldRules)[F]['required'] extends true
    ? string
    : string | null;
};

/** The columns an anonymous caller may send. */
export const bookingColumns = ['id', ...bookingFieldColumns] as const;

/**
 * Turns what the visitor typed into the row to store: trimmed and normalised
 * as the database stores it, an empty optional field as null.
 */
export function toBookingRow(form: BookingForm, id: string): BookingRow {
  const row: Record<string, string | null> = { id };
  for (const field of bookingFields) {
    const { column, required } = bookingFieldRules[field];
    const value = storedValue(field, form[field]);
    row[column] = value === '' && !required ? null : value;
  }
  return row as BookingRow;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}
