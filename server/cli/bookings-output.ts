import { shortReference } from '../../core/booking-reference.ts';
import { plainText } from '../notifications/booking-notice.ts';
import { formatUkTimeLong, formatUkTimeShort } from '../uk-time.ts';

/** One booking request as the command prints it (the REST API's columns). */
export interface BookingRecord {
  id: string;
  /** ISO 8601, UTC. */
  created_at: string;
  full_name: string;
  phone: string;
  email: string;
  instagram: string | null;
}

interface Column {
  title: string;
  /** Longer values are cut with an ellipsis, so that a row fits a terminal line. */
  maxWidth: number;
  value(record: BookingRecord): string;
}

const tableColumns: Column[] = [
  // The reference the practitioner's e-mail shows, to find a request from it.
  { title: 'Ref', maxWidth: 8, value: (record) => shortReference(record.id) },
  {
    title: 'Received (UK time)',
    maxWidth: 21,
    value: (record) => formatUkTimeShort(new Date(record.created_at)),
  },
  { title: 'Name', maxWidth: 28, value: (record) => record.full_name },
  { title: 'Phone', maxWidth: 20, value: (record) => record.phone },
  { title: 'E-mail', maxWidth: 32, value: (record) => record.email },
  { title: 'Instagram', maxWidth: 24, value: (record) => record.instagram ?? '' },
];

/** A table for a terminal; control characters in the data are shown as spaces, never interpreted. */
export function formatTable(records: readonly BookingRecord[]): string {
  if (records.length === 0) return 'No booking requests.\n';
  const cells = records.map((record) =>
    tableColumns.map((column) => fit(plainText(column.value(record)), column.maxWidth)),
  );
  const widths = tableColumns.map((column, index) =>
    Math.max(width(column.title), ...cells.map((row) => width(row[index]!))),
  );
  const line = (values: string[]) =>
    values
      .map((value, index) => value + ' '.repeat(widths[index]! - width(value)))
      .join('  ')
      .trimEnd();
  return [
    line(tableColumns.map((column) => column.title)),
    line(widths.map((size) => '-'.repeat(size))),
    ...cells.map(line),
    '',
  ].join('\n');
}

function width(text: string): number {
  return [...text].length;
}

function fit(text: string, maxWidth: number): string {
  const characters = [...text];
  return characters.length <= maxWidth ? text : `${characters.slice(0, maxWidth - 1).join('')}…`;
}

const csvHeader = [
  'id',
  'created_at',
  'received_uk',
  'full_name',
  'phone',
  'email',
  'instagram',
] as const;

/**
 * RFC 4180 CSV (CRLF line ends, fields quoted when needed). A cell that a
 * spreadsheet would run as a formula (starting with = + - @, a tab or a
 * carriage return) is prefixed with an apostrophe (OWASP's advice against
 * formula injection): a phone number `+44 1634…` reads `'+44 1634…`.
 */
export function formatCsv(records: readonly BookingRecord[]): string {
  const rows = records.map((record) => [
    record.id,
    record.created_at,
    formatUkTimeLong(new Date(record.created_at)),
    record.full_name,
    record.phone,
    record.email,
    record.instagram ?? '',
  ]);
  return [csvHeader, ...rows].map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}

export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function formatJson(records: readonly BookingRecord[]): string {
  return `${JSON.stringify(records, null, 2)}\n`;
}
