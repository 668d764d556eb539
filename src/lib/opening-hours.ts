import type { OpeningHours, Weekday } from '../content/clinic-hours.ts';
import { weekdays, type IsoDate } from './calendar-date.ts';
import { offsetFromTable, type UtcOffsets } from './utc-offsets.ts';

/** '20:30' → '8:30 PM', the way the specification writes the hours. */
export function formatTime(time: string): string {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  const suffix = hours < 12 ? 'AM' : 'PM';
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${hour12}:${String(minutes).padStart(2, '0')} ${suffix}`;
}

function minutesOf(time: string): number {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return hours * 60 + minutes;
}

/** The clinic's wall clock: weekday and minutes since midnight in its own time zone. */
interface LocalTime {
  weekday: Weekday;
  minutes: number;
}

/** The clinic's zone's offsets, written by the build (vite.config.ts); absent outside it. */
const clinicOffsets: UtcOffsets | null =
  typeof __CLINIC_UTC_OFFSETS__ === 'undefined' ? null : __CLINIC_UTC_OFFSETS__;

/** The wall clock in `timeZone` at `now`, as a UTC date, from the build's table; null outside it. */
function wallClockFromTable(timeZone: string, now: Date, offsets: UtcOffsets | null): Date | null {
  const offset = offsets?.timeZone === timeZone ? offsetFromTable(offsets, now.getTime()) : null;
  return offset === null ? null : new Date(now.getTime() + offset * 60_000);
}

/**
 * What a clock in `timeZone` shows at `now`. From the build's table of the
 * clinic's clock changes where it covers `now` (no Intl: its first use with a
 * time zone is slow, see utc-offsets.ts), otherwise Intl applies them.
 */
export function localTimeIn(
  timeZone: string,
  now: Date,
  offsets: UtcOffsets | null = clinicOffsets,
): LocalTime {
  const wall = wallClockFromTable(timeZone, now, offsets);
  if (wall) {
    return {
      weekday: wall.getUTCDay() as Weekday,
      minutes: wall.getUTCHours() * 60 + wall.getUTCMinutes(),
    };
  }
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const weekday = weekdays.findIndex((day) => day === part('weekday'));
  return {
    weekday: Math.max(0, weekday) as Weekday,
    minutes: Number(part('hour')) * 60 + Number(part('minute')),
  };
}

/** The date a calendar in `timeZone` shows at `now`, as `localTimeIn` tells its time. */
export function dateIn(
  timeZone: string,
  now: Date,
  offsets: UtcOffsets | null = clinicOffsets,
): IsoDate {
  const wall = wallClockFromTable(timeZone, now, offsets);
  if (wall) return wall.toISOString().slice(0, 10) as IsoDate;
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(now) as IsoDate;
}

export type OpeningStatus =
  | { open: true; closes: string }
  /** `daysAhead`: 0 today, 1 tomorrow, and so on; `weekday` is that day's. */
  | { open: false; opens: string; daysAhead: number; weekday: Weekday };

function hoursOn(hours: readonly OpeningHours[], weekday: Weekday): OpeningHours | undefined {
  return hours.find((entry) => entry.days.includes(weekday));
}

/** Whether the clinic is open at the given local time, and if not, when it next opens. */
export function openingStatus(
  hours: readonly OpeningHours[],
  local: LocalTime,
): OpeningStatus | null {
  const today = hoursOn(hours, local.weekday);
  if (today && local.minutes >= minutesOf(today.opens) && local.minutes < minutesOf(today.closes)) {
    return { open: true, closes: today.closes };
  }
  if (today && local.minutes < minutesOf(today.opens)) {
    return { open: false, opens: today.opens, daysAhead: 0, weekday: local.weekday };
  }
  for (let daysAhead = 1; daysAhead <= 7; daysAhead += 1) {
    const weekday = ((local.weekday + daysAhead) % 7) as Weekday;
    const next = hoursOn(hours, weekday);
    if (next) return { open: false, opens: next.opens, daysAhead, weekday };
  }
  return null; // No opening hours at all.
}
