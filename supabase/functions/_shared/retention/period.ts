import { ukClockInstant } from '../uk-time.ts';

/**
 * Periods such as `7d`, `2w`, `12mo` or `1y` (days, weeks, calendar months,
 * years), used by `--since`, `--older-than` and RETENTION, and the instants
 * they name. Months and years are calendar ones counted in UTC: `12mo` on
 * 22 November 2026 at 10:00 UTC reaches back to 22 November 2025 at 10:00 UTC;
 * a day that the earlier month lacks becomes its last day (31 March minus 1mo
 * is 28 or 29 February). A bare `m` is refused everywhere: `--since 5m` could
 * mean minutes as well as months.
 */

export type PeriodUnit = 'd' | 'w' | 'mo' | 'y';

/** The units, as the messages that refuse a period list them. */
export const periodUnitsHint = 'd, w, mo or y (days, weeks, calendar months, years), e.g. 12mo';

export interface Period {
  count: number;
  unit: PeriodUnit;
}

const unitNames: Record<PeriodUnit, [string, string]> = {
  d: ['day', 'days'],
  w: ['week', 'weeks'],
  mo: ['month', 'months'],
  y: ['year', 'years'],
};

/** `12mo` → 12 months; undefined when the text is not a period. */
export function parsePeriod(text: string): Period | undefined {
  const match = /^(\d{1,4})\s*(d|w|mo|y)$/i.exec(text.trim());
  if (!match) return undefined;
  const count = Number(match[1]);
  if (count === 0) return undefined;
  return { count, unit: match[2]!.toLowerCase() as PeriodUnit };
}

/**
 * Why `text` is refused as ambiguous (`5m`: minutes or months?), with what to
 * write instead: `5mo`, or `5min` where minutes are taken (`takesMinutes`);
 * undefined when it is not ambiguous.
 */
export function ambiguousUnit(text: string, takesMinutes = false): string | undefined {
  const match = /^(\d{1,5})\s*m$/i.exec(text.trim());
  if (!match) return undefined;
  const count = match[1]!;
  const instead = takesMinutes
    ? `write ${count}min for minutes or ${count}mo for months`
    : `write ${count}mo for months`;
  return `"${text.trim()}" could mean minutes or months: ${instead}.`;
}

/** "12 months", "1 day". */
export function describePeriod({ count, unit }: Period): string {
  const [one, many] = unitNames[unit];
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * The instant `period` before `now`, never before 1970: no booking request is
 * older, and PostgreSQL takes no time before 4713 BC, so that `9999y` (meant
 * as "for ever") would otherwise make the purge, and with it the daily
 * summary, fail.
 */
export function periodBefore(now: Date, period: Period): Date {
  return new Date(Math.max(0, instantBefore(now, period).getTime()));
}

function instantBefore(now: Date, { count, unit }: Period): Date {
  const dayMs = 24 * 60 * 60 * 1000;
  switch (unit) {
    case 'd':
      return new Date(now.getTime() - count * dayMs);
    case 'w':
      return new Date(now.getTime() - count * 7 * dayMs);
    case 'mo':
      return monthsBefore(now, count);
    case 'y':
      return monthsBefore(now, count * 12);
  }
}

function monthsBefore(now: Date, months: number): Date {
  const totalMonths = now.getUTCFullYear() * 12 + now.getUTCMonth() - months;
  const year = Math.floor(totalMonths / 12);
  const month = totalMonths - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const result = new Date(now.getTime());
  result.setUTCFullYear(year, month, Math.min(now.getUTCDate(), lastDay));
  return result;
}

/**
 * `--since`: hours or a period before now (`12h`, `7d`), a day (`23/11/2026`
 * as written in the UK, or `2026-11-23`; from midnight UK time) or a date and
 * time with its offset (`2026-11-23T09:00:00Z`).
 */
export function parseSince(text: string, now: Date): Date | undefined {
  const period = parsePeriod(text);
  if (period) return periodBefore(now, period);
  const hours = /^(\d{1,5})\s*h$/i.exec(text.trim());
  if (hours && Number(hours[1]) > 0) return new Date(now.getTime() - Number(hours[1]) * 3_600_000);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  // Day first, as the UK writes it: 23/11/2026 or 1/3/2026 (never month first).
  const uk = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  const date = iso
    ? { year: iso[1], month: iso[2], day: iso[3] }
    : uk
      ? { year: uk[3], month: uk[2], day: uk[1] }
      : undefined;
  if (date) {
    const [year, month, day] = [Number(date.year), Number(date.month), Number(date.day)];
    const check = new Date(Date.UTC(year, month - 1, day));
    if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
    // The instant that UK calendar day begins in London.
    return ukClockInstant(check.toISOString().slice(0, 10), { hour: 0, minute: 0 });
  }
  // A time without an offset would depend on the machine's time zone: refused.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(text.trim())) {
    return undefined;
  }
  const instant = new Date(text.trim());
  return Number.isNaN(instant.getTime()) ? undefined : instant;
}
