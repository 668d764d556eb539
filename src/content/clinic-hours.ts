/**
 * The clinic's opening hours and the words of the open-now line. Part of the
 * content (site.ts includes them); a module of their own because the page's
 * first script (src/main.tsx) needs these alone of it, and carries no more of
 * the content than it needs.
 */

/** A weekday as JavaScript counts them: 0 is Sunday, 6 is Saturday. */
export type Weekday = 0 | 1 | 2 | 3 | 4 | 5 | 6;

export interface OpeningHours {
  /** How the days read on the page, e.g. 'Monday – Friday'. */
  label: string;
  days: readonly Weekday[];
  /** 24-hour clock, UK local time, 'HH:MM'. */
  opens: string;
  closes: string;
}

/** The clinic's time zone: its hours are in it, and the open-now line is computed in it. */
export const clinicTimeZone = 'Europe/London';

export const openingHours = [
  { label: 'Monday – Friday', days: [1, 2, 3, 4, 5], opens: '09:00', closes: '20:30' },
  { label: 'Saturday', days: [6], opens: '08:00', closes: '15:00' },
  { label: 'Sunday', days: [0], opens: '08:00', closes: '15:00' },
] satisfies OpeningHours[];

/** The live line beside the hours, computed in the clinic's time zone. */
export const openingStatusWords = {
  open: (closes: string) => `Open now · closes at ${closes}`,
  closed: (when: string, opens: string) => `Closed now · opens ${when} at ${opens}`,
  today: 'today',
  tomorrow: 'tomorrow',
  weekdays: [
    'on Sunday',
    'on Monday',
    'on Tuesday',
    'on Wednesday',
    'on Thursday',
    'on Friday',
    'on Saturday',
  ],
} as const;
