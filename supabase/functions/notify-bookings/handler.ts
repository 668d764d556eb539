import {
  bodyNotJson,
  databaseUnavailable,
  done,
  failed,
  methodNotAllowed,
  misconfigured,
  secretNotSet,
  unauthorized,
  unknownTask,
} from './answers.ts';
import { collectConfigProblems, type Env } from '../_shared/config.ts';
import { DatabaseUnavailableError, type Database } from '../_shared/db/database.ts';
import { openPostgres } from '../_shared/db/postgres.ts';
import type { NotifierLog } from '../_shared/notifications/notifier.ts';
import {
  channelSettingsHint,
  loadNotifyConfig,
  type NotifyConfig,
} from '../_shared/notifications/notify-config.ts';
import { runDaily, type DailyRunOptions } from '../_shared/notifications/daily-run.ts';
import { loadDailySchedule } from '../_shared/notifications/daily-schedule.ts';
import { createOutbox, type Outbox } from '../_shared/notifications/outbox.ts';
import { createChannels, createConfiguredNotifier } from '../_shared/notifications/setup.ts';
import { isPlainSmtpOnTlsPort, smtpPort } from '../_shared/notifications/channels.ts';
import { siteUrlLeft } from '../_shared/content/placeholders.ts';
import { loadRetention } from '../_shared/retention/retention.ts';
import { sameSecret } from '../_shared/same-secret.ts';

/**
 * The notify-bookings Edge Function's requests: `POST` with
 * `Authorization: Bearer <NOTIFY_FUNCTION_SECRET>` sends every notification
 * that is due, with the same outbox, notifier and e-mail as the project's
 * server and `npm run notify`, and answers how it went: the requests of a
 * flood in one digest at most every 15 minutes. The database calls it after
 * every booking sent on its own and every minute (supabase/setup-notify.sql).
 *
 * With the body `{"task": "heartbeat"}` it does the daily run instead, the
 * server's own (daily-run.ts): once the UK clock has reached
 * NOTIFY_DAILY_SUMMARY_AT, the first call of the day deletes the requests
 * older than RETENTION and sends the daily summary; pg_cron asks every few
 * minutes, and the database makes sure that a day's run happens once.
 */

/**
 * No message of any kind is claimed after this long in one request: with sends
 * of at most 30 s per channel (90 s through all three), the answer comes before
 * pg_net stops waiting for it (120 s, 20261201000300_hosted_wake.sql) and
 * Supabase's limit of 150 s, which would stop a send half-way (sent again
 * once its claim lapsed); whatever is left waits for the next call, a minute on.
 */
const claimForMs = 20_000;

export function createNotifyHandler(
  env: Env,
  log: NotifierLog,
): (request: Request) => Promise<Response> {
  const secret = env.NOTIFY_FUNCTION_SECRET?.trim() || undefined;
  const databaseUrl = env.SUPABASE_DB_URL?.trim() || undefined;
  const { problems, attempt } = collectConfigProblems();
  // Only a log says what is wrong here: a wrong delay takes its default rather than
  // stopping every notice (a wrong channel, SITE_URL or NOTIFY_ACKNOWLEDGE still does).
  const config = attempt(() =>
    loadNotifyConfig(env, {
      forgiveTimingMistakes: (mistakes) =>
        log.error(
          `Notifications go on with the defaults of the settings that are wrong: ${mistakes.join(' ')}`,
        ),
    }),
  );
  if (!databaseUrl) problems.push('SUPABASE_DB_URL is not set.');
  if (!problems.length && !config) {
    problems.push(`No notification channel is configured: set ${channelSettingsHint}.`);
  }
  // Each call answers them too, but only pg_net's table keeps those answers, for hours.
  if (problems.length > 0) log.error(`Notifications cannot be sent: ${problems.join(' ')}`);
  const closedSmtpPort = config?.email && closedPortWarning(config.email.smtpUrl);
  if (closedSmtpPort) log.error(closedSmtpPort);
  const siteUrl = config && siteUrlLeft(env.SITE_URL);
  if (siteUrl) log.error(siteUrl);
  // A mistake in a setting of the daily run stops neither the notifications of
  // requests nor the run: it runs without the purge (RETENTION), or at the
  // default time (NOTIFY_DAILY_SUMMARY_AT), and its summary says what to mend.
  const retentionSetting = collectConfigProblems();
  const retention = retentionSetting.attempt(() => loadRetention(env));
  const scheduleSetting = collectConfigProblems();
  // Wrong, it is read as if unset: 07:00, the summary on.
  const schedule = scheduleSetting.attempt(() => loadDailySchedule(env)) ?? loadDailySchedule({});
  const settingProblems = {
    retention: retentionSetting.problems.join(' ') || undefined,
    schedule: scheduleSetting.problems.join(' ') || undefined,
  };
  const dailyProblems = [...retentionSetting.problems, ...scheduleSetting.problems].join(' ');
  if (dailyProblems) log.error(`The daily run goes on with safe defaults: ${dailyProblems}`);
  // Said in every plain call's answer too, so that the check after setting up
  // (docs/deploy.md, step 5) sees what only the heartbeats, every five minutes,
  // would answer.
  const setUpWarnings = {
    ...(dailyProblems ? { daily_run: `runs with safe defaults: ${dailyProblems}` } : {}),
    ...(closedSmtpPort ? { email: closedSmtpPort } : {}),
    ...(siteUrl ? { site_url: siteUrl } : {}),
  };

  return async (request) => {
    if (request.method !== 'POST') {
      return methodNotAllowed();
    }
    if (!secret) {
      return secretNotSet();
    }
    // The whole header, compared in constant time.
    if (!sameSecret(request.headers.get('Authorization') ?? '', `Bearer ${secret}`)) {
      return unauthorized();
    }
    if (problems.length > 0 || !config || !databaseUrl) {
      return misconfigured(problems.join(' '));
    }
    let task: unknown;
    try {
      const body = await request.text();
      task = body.trim() === '' ? undefined : (JSON.parse(body) as { task?: unknown } | null)?.task;
    } catch {
      return bodyNotJson();
    }
    if (task !== undefined && task !== 'heartbeat') {
      return unknownTask(task);
    }
    try {
      if (task === 'heartbeat') {
        return done(
          await heartbeat(databaseUrl, config, { schedule, retention, settingProblems }, log),
        );
      }
      return done({ ...(await sendDue(databaseUrl, config, log)), ...setUpWarnings });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.error(`Notifications: ${message}`);
      return error instanceof DatabaseUnavailableError
        ? databaseUnavailable(message)
        : failed(message);
    }
  };
}

/** What a run answers: notifications sent, failed (to be retried), and not yet sent (`pending`). */
function sendDue(databaseUrl: string, config: NotifyConfig, log: NotifierLog) {
  return withOutbox(databaseUrl, async (db, outbox) => {
    const { notifier } = createConfiguredNotifier(db, config, log);
    const report = await notifier.runOnce({ claimForMs }).finally(() => notifier.stop());
    return { ...report, pending: await outbox.countPending() };
  });
}

/**
 * What the daily run answers: its outcome (`sent`, `done`, `failed`, `not due`,
 * `already done`), its UK day once due, how many requests the purge deleted
 * (null when it did not run), and why it failed.
 */
function heartbeat(
  databaseUrl: string,
  config: NotifyConfig,
  settings: Pick<DailyRunOptions, 'schedule' | 'retention' | 'settingProblems'>,
  log: NotifierLog,
) {
  return withOutbox(databaseUrl, async (db) => {
    const channels = createChannels(config);
    try {
      const report = await runDaily({
        db,
        channels,
        ...settings,
        retryMs: config.retryMaxMs,
        siteUrl: config.siteUrl,
        log,
      });
      return {
        heartbeat: report.outcome,
        day: report.day ?? null,
        purged: report.purged ?? null,
        ...(report.error === undefined ? {} : { error: report.error }),
      };
    } finally {
      for (const channel of channels) channel.close();
    }
  });
}

/** Does `work` on the database, once the migrations that create the outbox have been applied. */
async function withOutbox<T>(
  databaseUrl: string,
  work: (db: Database, outbox: Outbox) => Promise<T>,
): Promise<T> {
  const db = await openPostgres(databaseUrl, { setting: 'SUPABASE_DB_URL' });
  try {
    const outbox = createOutbox(db);
    if (!(await outbox.exists())) {
      throw new Error(
        'The database has no notification outbox: apply the migrations of supabase/migrations (supabase db push).',
      );
    }
    return await work(db, outbox);
  } finally {
    await db.close();
  }
}

/**
 * Supabase's Edge Functions may not connect to ports 25 and 587: every e-mail
 * to such an SMTP_URL waits for its timeout and fails, however right the rest;
 * nor may any e-mail leave by smtp:// on port 465 (isPlainSmtpOnTlsPort).
 */
function closedPortWarning(smtpUrl: string): string | undefined {
  const url = new URL(smtpUrl);
  const port = smtpPort(url);
  if (isPlainSmtpOnTlsPort(url)) {
    return `SMTP_URL uses port 465 with smtp://, which waits for a greeting that port never sends (it speaks TLS from the first byte): no e-mail can leave. Write smtps://…:465 (docs/notifications.md, "The e-mail account: implicit TLS on port 465").`;
  }
  if (port !== '25' && port !== '587') return undefined;
  return `SMTP_URL uses port ${port}, which Supabase's Edge Functions may not connect to: no e-mail can leave. Use the mail server's port 465 (smtps://…:465; docs/notifications.md, "The e-mail account: implicit TLS on port 465").`;
}
