import {
  bookingFieldRules,
  bookingFields,
  emptyBookingForm,
  messageFor,
  validateBooking,
  type BookingFieldColumn,
  type RuleFailure,
} from '../../supabase/functions/_shared/core/booking-rules.ts';
import {
  bookingColumns,
  isUuid,
  toBookingRow,
} from '../../supabase/functions/_shared/core/booking-row.ts';
import {
  bookingTableColumns,
  type BookingInsert,
} from '../../supabase/functions/_shared/db/bookings-repository.ts';
import {
  checkViolation,
  columnNotFound,
  invalidColumnsParameter,
  invalidJson,
  invalidUuid,
  notAString,
  notBookingObjects,
  notNullViolation,
  objectKeysDiffer,
  oneBookingAtATime,
  permissionDenied,
  unstorableText,
  type ApiError,
} from '../http/api-errors.ts';

/**
 * Turns the body of `POST /rest/v1/bookings` into rows to insert, checked with
 * the form's own rules, and refused the way PostgREST and PostgreSQL would
 * refuse them (same codes), with the form's messages in `details`.
 */

/**
 * `website` is the honeypot: a column of the table that people never fill. It is
 * accepted here and passed on, so that the database (which decides for every
 * way in, hosted Supabase included) drops the request while answering 201.
 */
const honeypotColumn = 'website';
const insertableColumns = [...bookingColumns, honeypotColumn] as const;
type Column = (typeof insertableColumns)[number];

/** The first rule a row breaks, answered as PostgreSQL would name it, given every field's message. */
type Violation = (details: string) => ApiError;

export function parseBookingPayload(
  body: Buffer,
  options: { columns: string | null; newId: () => string },
): BookingInsert[] {
  const objects = parseObjects(body);
  const named =
    options.columns === null ? uniformKeys(objects) : parseColumnsParameter(options.columns);
  const columns = named.map((column): Column => {
    if (column !== honeypotColumn && !(bookingTableColumns as readonly string[]).includes(column)) {
      throw columnNotFound(column);
    }
    // Anonymous callers may insert the named columns only; created_at comes from the database clock.
    const insertable = insertableColumns.find((candidate) => candidate === column);
    if (!insertable) throw permissionDenied();
    return insertable;
  });

  // One request, one booking: a visitor never sends more, and an array of them
  // would use up the limits meant for many visitors (the database refuses it too).
  if (objects.length > 1) throw oneBookingAtATime();

  let first: Violation | undefined;
  const explanations: string[] = [];
  const rows = objects.map((object) => {
    const values = readValues(object, columns);
    const form = { ...emptyBookingForm };
    for (const field of bookingFields) {
      const { column, required } = bookingFieldRules[field];
      const value = values.fields[column];
      if (value !== null) {
        form[field] = value;
        continue;
      }
      if (!required) continue;
      first ??= (details) => notNullViolation(column, details);
      explanations.push(`${column}: ${messageFor(field, 'required')}`);
    }
    const failures = validateBooking(form);
    for (const field of bookingFields) {
      const failure: RuleFailure | undefined = failures[field];
      const { column } = bookingFieldRules[field];
      if (!failure || values.fields[column] === null) continue;
      first ??= (details) => checkViolation(column, details);
      explanations.push(`${column}: ${messageFor(field, failure)}`);
    }
    return { ...toBookingRow(form, values.id ?? options.newId()), website: values.website };
  });

  if (first) throw first(explanations.join('; '));
  return rows;
}

function parseObjects(body: Buffer): Record<string, unknown>[] {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw invalidJson();
  }
  const list = Array.isArray(value) ? value : [value];
  if (!list.every(isPlainObject)) throw notBookingObjects(Array.isArray(value));
  return list;
}

/** Without a `columns` parameter, PostgREST requires every object to have the same keys. */
function uniformKeys(objects: Record<string, unknown>[]): string[] {
  const keys = objects[0] ? Object.keys(objects[0]) : [];
  const same = (object: Record<string, unknown>) => {
    const other = Object.keys(object);
    return other.length === keys.length && other.every((key) => keys.includes(key));
  };
  if (!objects.every(same)) throw objectKeysDiffer();
  return keys;
}

/** postgrest-js sends `columns="id","full_name",…` with an array insert. */
function parseColumnsParameter(parameter: string): string[] {
  const names = parameter.split(',').map((name) => name.trim().replace(/^"(.*)"$/, '$1'));
  if (names.some((name) => name === '' || name.includes('"'))) {
    throw invalidColumnsParameter(parameter);
  }
  return names;
}

function readValues(object: Record<string, unknown>, columns: Column[]) {
  const read = (column: Column): unknown =>
    columns.includes(column) && Object.hasOwn(object, column) ? object[column] : null;
  const text = (column: Column, nullable: boolean): string | null => {
    const value = read(column);
    if (value === null) return null;
    if (typeof value !== 'string') throw notAString(column, nullable);
    if (!isStorableText(value)) throw unstorableText(column);
    return value;
  };

  const id = read('id');
  if (id !== null && (typeof id !== 'string' || !isUuid(id))) {
    const shown = typeof id === 'string' ? id : JSON.stringify(id);
    throw invalidUuid(shown);
  }
  // Each field's value as sent; null when absent or null.
  const fields = {} as Record<BookingFieldColumn, string | null>;
  for (const field of bookingFields) {
    const { column, required } = bookingFieldRules[field];
    fields[column] = text(column, !required);
  }
  return {
    // A missing id comes from options.newId rather than from the column
    // default, so that every insert has the same shape.
    id: typeof id === 'string' ? id : undefined,
    fields,
    website: text(honeypotColumn, true),
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** PostgreSQL text cannot hold NUL, and a lone surrogate has no UTF-8 form. */
function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !loneSurrogate.test(value);
}
