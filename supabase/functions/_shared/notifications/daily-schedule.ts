import { ConfigError, type Env } from '../config.ts';
import { nextUkDay, ukClockInstant, ukDayOf, type UkClockTime, type UkDay } from '../uk-time.ts';

/**
 * When the daily run happens (the retention purge, then the daily summary):
 * the setting NOTIFY_DAILY_SUMMARY_AT, and the instants it names in UK time,
 * across clock changes. What the summary says is daily-summary.ts's.
 */

export interface DailySchedule {
  /** The UK time of the daily run: the summary, and the retention purge. */
  at: UkClockTime;
  /** Whether the summary is sent (NOTIFY_DAILY_SUMMARY_AT=off turns it off, not the purge). */
  summary: boolean;
}

export const defaultDailyTime: UkClockTime = { hour: 7, minute: 0 };

/** NOTIFY_DAILY_SUMMARY_AT: `HH:MM` in UK time (07:00 by default), or `off`. */
export function loadDailySchedule(env: Env = process.env): DailySchedule {
  const text = env.NOTIFY_DAILY_SUMMARY_AT?.trim();
  if (!text) return { at: defaultDailyTime, summary: true };
  if (text.toLowerCase() === 'off') return { at: defaultDailyTime, summary: false };
  const match = /^(\d{1,2}):(\d{2})$/.exec(text);
  const hour = Number(match?.[1]);
  const minute = Number(match?.[2]);
  // Not after 23:55: hosted Supabase calls the function every five minutes, and a
  // later time would fall between its last call of the day and the day's end, never due.
  if (!match || hour > 23 || minute > 59 || (hour === 23 && minute > 55)) {
    throw new ConfigError([
      `NOTIFY_DAILY_SUMMARY_AT must be a time of day in UK time, 00:00 to 23:55 (e.g. 07:00), or off (got "${text}").`,
    ]);
  }
  return { at: { hour, minute }, summary: true };
}

/** "07:00". */
export function formatClockTime({ hour, minute }: UkClockTime): string {
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/**
 * The UK day whose daily run is due at `now`: today, once the UK clock has
 * reached `at`; undefined before. Whether it has already been done that day is
 * the database's to say (daily-run.ts).
 */
export function dailyRunDue(now: Date, at: UkClockTime): UkDay | undefined {
  const today = ukDayOf(now);
  return now.getTime() >= ukClockInstant(today, at).getTime() ? today : undefined;
}

/**
 * The next instant after `now` at which the UK clock shows `at`: today's if it
 * is still to come, else tomorrow's, so a day with a clock change is 23 or 25
 * hours long.
 */
export function nextDailyRun(now: Date, at: UkClockTime): Date {
  const today = ukDayOf(now);
  const todays = ukClockInstant(today, at);
  return todays.getTime() > now.getTime() ? todays : ukClockInstant(nextUkDay(today), at);
}
