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

/** A day of the UK calendar, `2026-10-25`. */
export type UkDay = string;

/** A time of day on the UK clock, 24-hour. */
export interface UkClockTime {
  hour: number;
  minute: number;
}

const dayFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The UK calendar day of `instant`, `2026-10-25`. */
export function ukDayOf(instant: Date): UkDay {
  const p = partsOf(dayFormat, instant);
  return `${p.year}-${p.month}-${p.day}`;
}

/** The UK day `days` after `day` (before it, when negative); the next one by default. */
export function nextUkDay(day: UkDay, days = 1): UkDay {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

const offsetFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  timeZoneName: 'longOffset',
});

/** Minutes the UK clock is ahead of UTC at `instant`: 0 (GMT) or 60 (BST). */
function ukOffsetMinutes(instant: number): number {
  const name = offsetFormat.formatToParts(instant).find((part) => part.type === 'timeZoneName');
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name?.value ?? '');
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/**
 * The instant the UK clock shows `time` on `day`. A time the clocks skip (01:30
 * on the last Sunday of March) is taken an hour later, as a clock that springs
 * forward shows it; a time they show twice (01:30 on the last Sunday of
 * October) is its first showing, in BST.
 */
export function ukClockInstant(day: UkDay, time: UkClockTime): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const asIfUtc = Date.UTC(year, month - 1, date, time.hour, time.minute);
  const minuteMs = 60_000;
  // The larger offset first: of two readings, the earlier instant.
  for (const offset of [60, 0]) {
    const instant = asIfUtc - offset * minuteMs;
    if (ukOffsetMinutes(instant) === offset) return new Date(instant);
  }
  return new Date(asIfUtc);
}

/** "45 min", "3 h 05 min", "2 days 4 h": how long from `from` to `to`. */
export function formatDuration(from: Date, to: Date): string {
  const minutes = Math.max(0, Math.floor((to.getTime() - from.getTime()) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
  return `${Math.floor(hours / 24)} days ${hours % 24} h`;
}
