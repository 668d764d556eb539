/** Times as the practice reads them: UK time (Europe/London), GMT or BST, 24-hour clock. */

const longFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'short',
});

const shortFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  weekday: 'short',
  day: '2-digit',
  month: 'numeric',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

type Parts = Partial<Record<Intl.DateTimeFormatPartTypes, string>>;

function partsOf(format: Intl.DateTimeFormat, date: Date): Parts {
  const parts: Parts = {};
  for (const { type, value } of format.formatToParts(date)) parts[type] = value;
  return parts;
}

/** "Sunday 22 November 2026, 14:05 GMT" (BST in summer). */
export function formatUkTimeLong(date: Date): string {
  const p = partsOf(longFormat, date);
  // Node's ICU names UK summer time "BST" in en-GB; anything else falls back to the offset it gives.
  return `${p.weekday} ${p.day} ${p.month} ${p.year}, ${p.hour}:${p.minute} ${p.timeZoneName}`;
}

// Three letters each, so that table columns line up (ICU's en-GB writes "Sept").
const shortMonths = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
];

/** "Sun 22 Nov 2026 14:05", always 21 characters, for tables. */
export function formatUkTimeShort(date: Date): string {
  const p = partsOf(shortFormat, date);
  const month = shortMonths[Number(p.month) - 1];
  return `${p.weekday} ${p.day} ${month} ${p.year} ${p.hour}:${p.minute}`;
}
