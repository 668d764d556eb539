import { clinicTimeZone, openingHours, openingStatusWords } from '../content/clinic-hours.ts';
import { formatTime, localTimeIn, openingStatus, type OpeningStatus } from './opening-hours.ts';

/** 'Open now · closes at 8:30 PM', or when the clinic next opens. */
export function describeOpeningStatus(status: OpeningStatus): string {
  const copy = openingStatusWords;
  if (status.open) return copy.open(formatTime(status.closes));
  const when =
    status.daysAhead === 0
      ? copy.today
      : status.daysAhead === 1
        ? copy.tomorrow
        : copy.weekdays[status.weekday];
  return copy.closed(when, formatTime(status.opens));
}

/** Whether the clinic is open now, in its own time zone, by the visitor's clock. */
export function currentOpeningStatus(): OpeningStatus | null {
  return openingStatus(openingHours, localTimeIn(clinicTimeZone, new Date()));
}

/** The class of the line that shows it (src/components/opening-status.tsx). */
export const openingStatusClass = 'opening-status';

let filledIn: OpeningStatus | null = null;

/**
 * Fills in every pre-rendered line with the status, before the React app
 * exists (src/main.tsx). The app then adopts the same text: it starts from
 * the status written here (`statusFilledIn`), so its first render matches.
 */
export function fillInOpeningStatus(document: Document): void {
  filledIn = currentOpeningStatus();
  if (!filledIn) return;
  const text = describeOpeningStatus(filledIn);
  for (const line of document.querySelectorAll<HTMLElement>(`.${openingStatusClass}`)) {
    const last = line.lastChild;
    if (last?.nodeType === Node.TEXT_NODE) last.nodeValue = text;
    else line.append(text);
    line.dataset.open = String(filledIn.open);
  }
}

/** The status written into the page by `fillInOpeningStatus`, if it ran. */
export function statusFilledIn(): OpeningStatus | null {
  return filledIn;
}
