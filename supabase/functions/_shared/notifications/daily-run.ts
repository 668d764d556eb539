import type { Database } from '../db/database.ts';
import type { Period } from '../retention/period.ts';
import { purgeOldRequests, retentionTooShort } from '../retention/retention.ts';
import type { UkDay } from '../uk-time.ts';
import { numberedMessageKey, type NotificationChannel } from './channels.ts';
import { dailyRunDue, type DailySchedule } from './daily-schedule.ts';
import {
  composeDailySummary,
  recordWindowMs,
  summaryWindowStart,
  type RetentionReport,
} from './daily-summary.ts';
import { createNotificationStates } from './notification-states.ts';
import { createMessageQueue, type MessageQueue } from './message-queue.ts';
import { describeError, sendOnceToPractice, type NotifierLog } from './notifier.ts';

/**
 * The daily run, once a day at the schedule's UK time, by the server's timer
 * and by the Edge Function when pg_cron asks: the retention purge, then the
 * daily summary to the practice. The day's run is a message of the one queue
 * (message-queue.ts), one per UK day, so that of several servers and function calls only one does a day's
 * run; one whose summary no channel took gives the day back, to be tried again.
 * A run with no channel configured purges and gives the day back at once: the
 * day's summary is still owed, and a server started later that day with a
 * channel sends it.
 */

/**
 * - `sent`: the summary went out (and the purge ran);
 * - `done`: the purge ran; no summary (turned off, or no channel configured,
 *   in which case the day stays open for a run that has one);
 * - `failed`: no channel took the summary; the day is tried again later;
 * - `not due`: the UK clock has not reached today's time yet;
 * - `already done`: today's run was done, or is being done, elsewhere.
 */
type DailyRunOutcome = 'sent' | 'done' | 'failed' | 'not due' | 'already done';

interface DailyRunReport {
  outcome: DailyRunOutcome;
  /** The UK day of the run, once due. */
  day?: UkDay;
  /** Requests deleted by the purge; undefined when it did not run. */
  purged?: number;
  /** Why the summary or the purge failed. */
  error?: string;
}

export interface DailyRunOptions {
  db: Database;
  channels: readonly NotificationChannel[];
  schedule: DailySchedule;
  /** RETENTION; undefined when off. */
  retention: Period | undefined;
  /**
   * Why RETENTION or NOTIFY_DAILY_SUMMARY_AT could not be read, on hosted
   * Supabase, where such a mistake stops no notice: the run goes on without
   * the purge, or at the default time, and its summary says what to mend,
   * which otherwise only the function's log would.
   */
  settingProblems?: { retention?: string; schedule?: string };
  /** SITE_URL: where the summary's links go. */
  siteUrl: string;
  /** A summary that no channel took is tried again after this long. */
  retryMs: number;
  log: NotifierLog;
  now?: () => Date;
}

/** The day's last_error while no run with a channel has taken it. */
export const noChannelNote = 'No channel configured: the summary waits for a run that has one.';

/** Long enough for a purge and a send on every channel; then another process may take the day over. */
const leaseMs = 5 * 60_000;

export async function runDaily(options: DailyRunOptions): Promise<DailyRunReport> {
  const { db, channels, schedule, log } = options;
  const now = options.now?.() ?? new Date();
  const day = dailyRunDue(now, schedule.at);
  if (!day) return { outcome: 'not due' };
  const queue = createMessageQueue(db);
  const run = await claimDay(db, queue, day);
  if (!run) return { outcome: 'already done', day };

  // The visitors' networks that the limits count over an hour (20261201000100_limits.sql):
  // a booking clears the older ones, but a quiet site would keep them, addresses, for good.
  await db.query(
    `delete from app_private.booking_clients where created_at <= $1::timestamptz - interval '1 hour'`,
    [now.toISOString()],
  );

  let retention: RetentionReport = { kind: 'off' };
  let purged: number | undefined;
  const { settingProblems = {} } = options;
  const notPurging =
    settingProblems.retention === undefined
      ? options.retention && retentionTooShort(options.retention)
      : `no request is deleted until RETENTION is mended (above).`;
  if (notPurging) {
    // A setting to change, not a failure to retry: the summary says what to set.
    retention = { kind: 'not purging', reason: notPurging };
  } else if (options.retention) {
    try {
      purged = await purgeOldRequests({ db, period: options.retention, now, log });
      retention = { kind: 'purged', period: options.retention, deleted: purged };
    } catch (error) {
      const message = describeError(error);
      log.error(`Retention: the purge of old booking requests failed: ${message}`);
      retention = { kind: 'failed', error: message };
    }
  }

  if (!schedule.summary) {
    await queue.settle(run, 'done', { note: null });
    return { outcome: 'done', day, purged };
  }
  if (channels.length === 0) {
    await queue.retryLater(run, 0, noChannelNote);
    return { outcome: 'done', day, purged };
  }

  const states = createNotificationStates(db);
  const summary = composeDailySummary({
    day,
    now,
    at: schedule.at,
    requests: await states.requestsBetween(summaryWindowStart(day, schedule.at), now),
    failing: await states.failing(),
    // At the run's clock, not the database's now(): what waited, and what was answered, at `now`.
    waiting: await states.waiting(now),
    replies: await states.repliesBetween(new Date(now.getTime() - recordWindowMs), now),
    retention,
    settingProblems: [settingProblems.retention, settingProblems.schedule].filter(
      (problem) => problem !== undefined,
    ),
    siteUrl: options.siteUrl,
    emailed: channels.some((channel) => channel.name === 'email'),
  });
  const key = numberedMessageKey(`daily-summary-${day}`, run.id, run.createdAt);
  const outcome = await sendOnceToPractice({
    channels,
    queue,
    held: run,
    retryMs: options.retryMs,
    log,
    send: (channel) => channel.sendDailySummary({ ...summary, key }),
    sent: (by) => `Sent the daily summary of ${day} by ${by}.`,
    failed: (error) =>
      `The daily summary of ${day} could not be sent: ${error}. It is tried again later.`,
  });
  if (!outcome.sent) return { outcome: 'failed', day, purged, error: outcome.error };
  return { outcome: 'sent', day, purged };
}

/**
 * Claims the day's run for `leaseMs`: undefined when it is done, or being
 * done elsewhere, or waiting for a retry. The first process to reach the day
 * adds its row; a second waits for that insert, then finds the row.
 */
async function claimDay(db: Database, queue: MessageQueue, day: UkDay) {
  // Not every check inserts: an insert that conflicts would use up an id.
  await db.query(
    `insert into app_private.messages (kind, day)
     select 'daily_run', $1::date
      where not exists (select 1 from app_private.messages where kind = 'daily_run' and day = $1::date)
     on conflict (day) where kind = 'daily_run' do nothing`,
    [day],
  );
  return queue.claimNext(['daily_run'], leaseMs, { day });
}
