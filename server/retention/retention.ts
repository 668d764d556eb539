import { ConfigError } from '../config.ts';
import type { BookingsRepository } from '../db/bookings-repository.ts';
import { describePeriod, parsePeriod, periodBefore, type Period } from './period.ts';

/**
 * Automatic deletion of booking requests older than RETENTION (e.g. `12m`):
 * at start, then once a day, for as long as the server runs. Their pending or
 * sent notifications go with them (the outbox references the bookings with
 * `on delete cascade`).
 */

const dayMs = 24 * 60 * 60 * 1000;

type Env = Record<string, string | undefined>;

/** RETENTION, or undefined when unset (requests are kept until deleted by hand). */
export function loadRetention(env: Env = process.env): Period | undefined {
  const text = env.RETENTION?.trim();
  if (!text) return undefined;
  const period = parsePeriod(text);
  if (!period) {
    throw new ConfigError([
      `RETENTION must be a number followed by d, w, m or y (days, weeks, months, years), e.g. 12m (got "${text}").`,
    ]);
  }
  return period;
}

export interface RetentionLog {
  info(message: string): void;
  error(message: string, error: unknown): void;
}

export interface RetentionSchedule {
  /** Resolves after the purge in progress, if any, has finished. */
  stop(): Promise<void>;
}

export function startRetention(options: {
  bookings: BookingsRepository;
  period: Period;
  log: RetentionLog;
  now?: () => Date;
  intervalMs?: number;
}): RetentionSchedule {
  const now = options.now ?? (() => new Date());
  let running: Promise<void> | undefined;

  const purge = async () => {
    const cutoff = periodBefore(now(), options.period);
    try {
      const deleted = await options.bookings.deleteForService([
        { column: 'created_at', operator: 'lt', value: cutoff.toISOString(), negated: false },
      ]);
      if (deleted > 0) {
        options.log.info(
          `Retention: deleted ${deleted} booking request${deleted === 1 ? '' : 's'} older than ${describePeriod(options.period)} (before ${cutoff.toISOString()}).`,
        );
      }
    } catch (error) {
      options.log.error('Retention: the purge of old booking requests failed', error);
    }
  };
  const run = () => {
    if (running) return;
    running = purge().finally(() => (running = undefined));
  };

  run();
  const timer = setInterval(run, options.intervalMs ?? dayMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
