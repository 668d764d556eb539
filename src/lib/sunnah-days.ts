import { clinicTimeZone } from '../content/clinic-hours.ts';
import { formatWeekdayDate, type IsoDate } from './calendar-date.ts';
import { dateIn } from './opening-hours.ts';

/**
 * The Sunnah days for Hijama, the 17th, 19th and 21st of the Hijri month, as
 * Gregorian dates by the Umm al-Qura calendar. The build writes the table
 * (vite.config.ts, `__SUNNAH_DAYS__`), as it writes the clinic's clock
 * changes (utc-offsets.ts): the page picks the next ones by plain comparison
 * of dates, with no Intl (its calendars are slow to load on a phone). The
 * dates are expected ones: a month's start may move a day with the moon
 * sighting, which the page says beside them.
 */

/** The days of the Hijri month on which Hijama is a Sunnah. */
const sunnahDaysOfMonth = [17, 19, 21] as const;

const dayMs = 24 * 60 * 60 * 1000;

/**
 * Every Sunnah day from `from` for `days` days, in date order, by Intl's
 * Umm al-Qura calendar (for the build).
 */
export function sunnahDaysFrom(from: IsoDate, days: number): IsoDate[] {
  const hijri = new Intl.DateTimeFormat('en-u-ca-islamic-umalqura', {
    timeZone: 'UTC',
    day: 'numeric',
  });
  const start = Date.parse(`${from}T00:00:00Z`);
  const found: IsoDate[] = [];
  for (let index = 0; index < days; index += 1) {
    const day = new Date(start + index * dayMs);
    const dayOfMonth = Number(hijri.formatToParts(day).find((p) => p.type === 'day')?.value);
    if ((sunnahDaysOfMonth as readonly number[]).includes(dayOfMonth))
      found.push(day.toISOString().slice(0, 10) as IsoDate);
  }
  return found;
}

/** The table the build writes: from the day before the build (any zone's today), for three years. */
export function sunnahDaysForBuild(now = new Date()): IsoDate[] {
  const yesterday = new Date(now.getTime() - dayMs).toISOString().slice(0, 10) as IsoDate;
  return sunnahDaysFrom(yesterday, 3 * 366);
}

/** The table the build wrote; empty outside the build (the tests give their own). */
const builtTable: readonly IsoDate[] =
  typeof __SUNNAH_DAYS__ === 'undefined' ? [] : __SUNNAH_DAYS__;

/** The next `count` Sunnah days from `today` (a Sunnah day itself included). */
export function nextSunnahDays(
  today: IsoDate,
  table: readonly IsoDate[] = builtTable,
  count = 3,
): IsoDate[] {
  // Dates written YYYY-MM-DD compare as strings in the order of the calendar.
  return table.filter((date) => date >= today).slice(0, count);
}

/** The next Sunnah days from today in the clinic's time zone, by the visitor's clock. */
export function currentSunnahDays(): IsoDate[] {
  return nextSunnahDays(dateIn(clinicTimeZone, new Date()));
}

/** The class of the list that shows them (src/components/sunnah-days-list.tsx). */
export const sunnahDaysClass = 'sunnah-days';

let filledIn: IsoDate[] | null = null;

/**
 * Fills in every pre-rendered list with the next Sunnah days, before the React
 * app exists (src/main.tsx), as fillInOpeningStatus does the open-now line:
 * each item gets the <time> the list's component renders, and the app starts
 * from the dates written here (`sunnahDaysFilledIn`), so its first render
 * matches.
 */
export function fillInSunnahDays(document: Document): void {
  const lists = document.querySelectorAll(`.${sunnahDaysClass}`);
  if (lists.length === 0) return;
  filledIn = currentSunnahDays();
  for (const list of lists) {
    list.querySelectorAll('li').forEach((item, index) => {
      const date = filledIn?.[index];
      if (!date) return;
      const time = document.createElement('time');
      time.dateTime = date;
      time.textContent = formatWeekdayDate(date);
      item.replaceChildren(time);
    });
  }
}

/** The dates written into the page by `fillInSunnahDays`, if it ran. */
export function sunnahDaysFilledIn(): IsoDate[] | null {
  return filledIn;
}
