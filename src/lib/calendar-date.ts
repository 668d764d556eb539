/**
 * Calendar dates written 'YYYY-MM-DD', read and shown in English without
 * Intl (its first use costs a phone's main thread; see utc-offsets.ts). A
 * date here is a day on the calendar, not an instant: no time zone applies.
 */

/** A day on the calendar, e.g. '2026-03-14'. */
export type IsoDate = `${number}-${number}-${number}`;

const months = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** Each weekday's short name, Sunday first as `Date.getUTCDay` counts them. */
export const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

function partsOf(date: IsoDate): { year: number; month: number; day: number } {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  return { year, month, day };
}

/** '2026-03-14' → '14 March 2026'. */
export function formatLongDate(date: IsoDate): string {
  const { year, month, day } = partsOf(date);
  return `${day} ${months[month - 1]} ${year}`;
}

/** '2026-12-08' → 'Tue 8 December'. */
export function formatWeekdayDate(date: IsoDate): string {
  const { year, month, day } = partsOf(date);
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return `${weekdays[weekday]} ${day} ${months[month - 1]}`;
}
