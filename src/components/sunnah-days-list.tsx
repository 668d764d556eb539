import { formatWeekdayDate } from '../lib/calendar-date.ts';
import { currentSunnahDays, sunnahDaysClass, sunnahDaysFilledIn } from '../lib/sunnah-days.ts';
import { useClockValue } from './use-clock-value.ts';

const shown = 3;
const refreshMs = 60 * 60_000;

/**
 * The next three Sunnah days ('Tue 8 December'). They depend on the visitor's
 * date, so they are never pre-rendered (they would be stale): the list keeps
 * its height with empty items until it is filled in, by the page's first
 * script on a pre-rendered view (src/main.tsx), and React starts from the
 * same dates, so what it adopts matches (as src/components/opening-status.tsx).
 */
export function SunnahDaysList() {
  const dates = useClockValue(sunnahDaysFilledIn, currentSunnahDays, refreshMs);

  return (
    <ul className={sunnahDaysClass}>
      {Array.from({ length: shown }, (_, index) => {
        const date = dates?.[index];
        return (
          <li key={index}>
            {date ? <time dateTime={date}>{formatWeekdayDate(date)}</time> : '\u00a0'}
          </li>
        );
      })}
    </ul>
  );
}
