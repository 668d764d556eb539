import { practice } from '../content/practice.ts';
import { ConfigError, type Env } from '../config.ts';
import { createOwnerBookingsRepository } from '../db/bookings-repository.ts';
import type { Database } from '../db/database.ts';
import {
  ambiguousUnit,
  describePeriod,
  parsePeriod,
  periodBefore,
  periodUnitsHint,
  type Period,
} from './period.ts';

/**
 * Deletion of booking requests older than the privacy notice promises
 * (`retentionMonths` in content/practice.ts, 12 months), by the server at start
 * and in its daily run, and by the Edge Function's daily run. RETENTION sets
 * another period, or `off`. Their notifications go with them (the outbox
 * references the bookings with `on delete cascade`).
 */

/** What the privacy notice under the form promises. */
export const promisedRetention: Period = { count: practice.retentionMonths, unit: 'mo' };

/** RETENTION: the promised period when unset, undefined when `off` (requests are kept until deleted by hand). */
export function loadRetention(env: Env = process.env): Period | undefined {
  const text = env.RETENTION?.trim();
  if (!text) return promisedRetention;
  if (text.toLowerCase() === 'off') return undefined;
  const ambiguous = ambiguousUnit(text);
  if (ambiguous) throw new ConfigError([`RETENTION: ${ambiguous}`]);
  const period = parsePeriod(text);
  if (!period) {
    throw new ConfigError([
      `RETENTION must be a number followed by ${periodUnitsHint}, or off (got "${text}").`,
    ]);
  }
  return period;
}

/**
 * Why `period` is too short to purge by, or undefined. Under a month is more
 * likely a slip (`12d` for `12mo`) than a wish, and a slip here deletes, every
 * day and without asking, requests the practice may not have answered yet; so
 * nothing is deleted, and the server's start, the daily summary and `check` say so
 * (daily-run.ts does not purge by it; purgeOldRequests refuses it too). A
 * refused setting would instead stop the day's run, and its summary with it.
 */
export function retentionTooShort({ count, unit }: Period): string | undefined {
  if (count * shortestDaysIn[unit] >= 28) return undefined;
  return `RETENTION=${count}${unit} is shorter than a month, so nothing is deleted: set it to 28d, 4w, 1mo or longer (${practice.retentionMonths}mo, as the privacy notice says), or delete sooner by hand with \`npx hijama purge --older-than ${count}${unit}\`, which shows what it would delete and asks first.`;
}

/** The fewest days in each unit. */
const shortestDaysIn: Record<Period['unit'], number> = { d: 1, w: 7, mo: 28, y: 365 };

/** The warning to print at start when the period breaks the privacy notice's promise or is too short to purge by; undefined when it keeps it. */
export function retentionWarning(
  period: Period | undefined,
  now: Date = new Date(),
): string | undefined {
  const promised = describePeriod(promisedRetention);
  const tooShort = period && retentionTooShort(period);
  if (tooShort) return `Warning: ${tooShort}`;
  if (period === undefined) {
    return `Warning: RETENTION is off, so booking requests are kept until deleted by hand, but the privacy notice under the form says they are deleted after ${promised}. Remove RETENTION=off (the server then deletes them daily), or delete them yourself regularly with \`npx hijama purge --older-than ${practice.retentionMonths}mo\`.`;
  }
  // Longer than promised: the cutoff lies before the promised one.
  if (periodBefore(now, period).getTime() < periodBefore(now, promisedRetention).getTime()) {
    return `Warning: RETENTION=${period.count}${period.unit} keeps booking requests for ${describePeriod(period)}, longer than the ${promised} the privacy notice under the form promises. Set RETENTION=${practice.retentionMonths}mo, or change retentionMonths in supabase/functions/_shared/content/practice.ts (the notice) and rebuild.`;
  }
  return undefined;
}

/** Deletes what is older than `period` at `now`, logging what went; returns how many. */
export async function purgeOldRequests(options: {
  db: Database;
  period: Period;
  now: Date;
  log: { info(message: string): void };
}): Promise<number> {
  const tooShort = retentionTooShort(options.period);
  if (tooShort) throw new Error(tooShort);
  const cutoff = periodBefore(options.now, options.period);
  // As `hijama purge` deletes: as the connection's user, which owns the tables.
  const deleted = await createOwnerBookingsRepository(options.db).delete({ before: cutoff });
  if (deleted > 0) {
    options.log.info(
      `Retention: deleted ${deleted} booking request${deleted === 1 ? '' : 's'} older than ${describePeriod(options.period)} (before ${cutoff.toISOString()}).`,
    );
  }
  return deleted;
}
