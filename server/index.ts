import { existsSync } from 'node:fs';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createApp } from './app.ts';
import { ConfigError } from '../supabase/functions/_shared/config.ts';
import { createBookingAnswers } from '../supabase/functions/_shared/db/booking-answers.ts';
import { createBookingChallengeIssuer } from './db/booking-challenge.ts';
import { createBookingsRepository } from '../supabase/functions/_shared/db/bookings-repository.ts';
import { DatabaseRefusedError } from '../supabase/functions/_shared/db/database.ts';
import { MigrationRefusedError } from './db/migrate.ts';
import { createHttpServer } from './http/http-server.ts';
import { openDatabase, type OpenedDatabase } from './db/open-database.ts';
import { plainMessage } from './setup-errors.ts';
import {
  checkDataDirIsPrivate,
  refusedSetupExitStatus,
  DataDirNotPrivateError,
  DataDirOwnerError,
  DataDirUnusableError,
} from './db/private-data-dir.ts';
import type { NotificationChannel } from '../supabase/functions/_shared/notifications/channels.ts';
import { runDaily } from '../supabase/functions/_shared/notifications/daily-run.ts';
import { formatClockTime } from '../supabase/functions/_shared/notifications/daily-schedule.ts';
import { startDailyTimer } from './notifications/daily-timer.ts';
import { describeError } from '../supabase/functions/_shared/notifications/notifier.ts';
import {
  channelSettingsHint,
  type NotifyConfig,
} from '../supabase/functions/_shared/notifications/notify-config.ts';
import {
  consoleLog,
  createConfiguredNotifier,
} from '../supabase/functions/_shared/notifications/setup.ts';
import { wakeAfterInserts } from './notifications/wake-after-inserts.ts';
import { createOutbox } from '../supabase/functions/_shared/notifications/outbox.ts';
import { describeSmtpFailure, describeSmtpSuccess } from './notifications/smtp-check.ts';
import { describePeriod } from '../supabase/functions/_shared/retention/period.ts';
import {
  purgeOldRequests,
  retentionTooShort,
  retentionWarning,
} from '../supabase/functions/_shared/retention/retention.ts';
import { ignoredSettings, inTheSettings, loadSettings, readDotEnv } from './settings.ts';
import { launchPlaceholders } from '../src/content/launch-list.ts';
import { siteUrlFrom } from '../supabase/functions/_shared/content/site-url.ts';
import { builtForAnotherSite } from './built-site.ts';

/** How long a stop waits for requests in flight before closing their connections. */
const shutdownGraceMs = 10_000;

async function main() {
  // What the server writes (the database's files, its write-ahead log) is its
  // user's alone, whatever umask it was started with: they hold personal data.
  process.umask(0o077);
  // Variables already set in the environment win over the file.
  for (const [name, value] of Object.entries(readDotEnv('.'))) process.env[name] ??= value;
  const { server: config, notify: notifyConfig, retention, daily, limits } = loadSettings();
  for (const warning of ignoredSettings(process.env)) console.warn(warning);
  // A data directory open to other users is refused before anything is written in it.
  if (!config.databaseUrl) checkDataDirIsPrivate(config.dataDir);

  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    bookingLimits: limits.bookingLimits,
  });
  for (const file of database.migrations.changed) {
    console.warn(
      `Warning: migration ${file} has changed since it was applied; it was not applied again.`,
    );
  }
  if (!existsSync(path.join(config.distDir, 'index.html'))) {
    console.warn(
      `Warning: ${config.distDir} has no index.html; build the site with \`npm run build\`.`,
    );
  }
  const stale = builtForAnotherSite(config.distDir, process.env.SITE_URL);
  if (stale) console.warn(`Warning: ${stale}`);

  const bookings = createBookingsRepository(database.db);
  const notifications = notifyConfig
    ? createConfiguredNotifier(database.db, notifyConfig, consoleLog)
    : undefined;
  const app = createApp({
    bookings: notifications ? wakeAfterInserts(bookings, notifications.notifier) : bookings,
    anonKey: config.anonKey,
    distDir: config.distDir,
    limits,
    issueBookingChallenge: createBookingChallengeIssuer(database.db),
    bookingAnswers: createBookingAnswers(database.db),
  });
  let stopping = false;
  const inFlight = new Set<ServerResponse>();
  const server = createHttpServer((req, res) => {
    // Once stopping, connections close after their current answer instead of idling.
    if (stopping) res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.on('close', () => inFlight.delete(res));
    app(req, res);
  });

  await listen(server, config.port, config.host, database);
  // Before anything is said about the start: whoever reads that the server
  // is up may stop it, and it must then stop cleanly.
  let dailyTimer: ReturnType<typeof startDailyTimer> | undefined = undefined;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => server.closeAllConnections(), shutdownGraceMs);
    force.unref();
    for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    // The send in progress finishes (or times out); nothing new is claimed.
    const background = Promise.all([notifications?.notifier.stop(), dailyTimer?.stop()]);
    server.close(() => {
      clearTimeout(force);
      background
        .then(() => database.close())
        .then(
          () => process.exit(0),
          (error: unknown) => {
            console.error(`Error while closing the database after ${signal}:`, error);
            process.exit(1);
          },
        );
    });
    server.closeIdleConnections();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  if (!(await database.shareWithCommands())) {
    console.warn(
      `Warning: the path of ${config.dataDir} is too long for the socket on which \`npx hijama\` reaches the database ` +
        'while the server runs: the command works only while the server is stopped. Move DATA_DIR to a shorter path.',
    );
  }
  console.log(`Listening on http://${host}:${port} (${database.db.description})`);
  const channels = notifications?.channels ?? [];
  if (notifications && notifyConfig) {
    const retried = await createOutbox(database.db).retryFailingNow();
    if (retried > 0) {
      console.log(
        `${retried} failing notification${retried === 1 ? ' is' : 's are'} tried again now.`,
      );
    }
    notifications.notifier.start();
    const by = channels.map((channel) => channel.description).join(' and ');
    console.log(`Booking requests are notified by ${by}.`);
    void checkChannels(channels, notifyConfig);
  } else {
    console.warn(
      'Warning: no notification channel is configured, so no one will be told of booking requests. ' +
        'They are stored, and `npm run bookings` lists them, but nobody is e-mailed. ' +
        `Set ${channelSettingsHint} ${inTheSettings} and restart the server (docs/notifications.md).`,
    );
  }
  // A period too short to purge by deletes nothing, and retentionWarning says why.
  const purging = retention && !retentionTooShort(retention) ? retention : undefined;
  if (purging) {
    console.log(
      `Booking requests older than ${describePeriod(purging)} are deleted at start and daily.`,
    );
  }
  const retentionProblem = retentionWarning(retention);
  if (retentionProblem) console.warn(retentionProblem);
  // Said once at each start, until the content is the practice's own, reviews
  // included (npx hijama check and the build list them too).
  for (const placeholder of launchPlaceholders(process.env.SITE_URL)) {
    console.warn(`Warning: ${placeholder}`);
  }
  if (notifications && daily.summary) {
    console.log(
      `A summary of the day's requests is sent every day at ${formatClockTime(daily.at)} UK time.`,
    );
  }

  // At start: today's run if it is due and not done yet (by this server or
  // another), else the purge alone; then every day at the set time.
  let started = false;
  dailyTimer = startDailyTimer({
    at: daily.at,
    run: async () => {
      const atStart = !started;
      started = true;
      try {
        const report = await runDaily({
          db: database.db,
          channels,
          schedule: daily,
          retention,
          retryMs: notifyConfig?.retryMaxMs ?? 600_000,
          siteUrl: notifyConfig?.siteUrl ?? siteUrlFrom(undefined),
          log: consoleLog,
        });
        if (atStart && purging && report.purged === undefined) {
          await purgeOldRequests({
            db: database.db,
            period: purging,
            now: new Date(),
            log: consoleLog,
          });
        }
      } catch (error) {
        console.error(
          `The daily run (purge and summary) failed: ${describeError(error)}. It is tried again within the hour.`,
        );
      }
    },
  });
}

/** Checks each channel that can be checked without sending (the SMTP login) and says how it went. */
async function checkChannels(channels: readonly NotificationChannel[], config: NotifyConfig) {
  const email = channels.find((channel) => channel.name === 'email');
  if (!email || !config.email) return;
  try {
    await email.verify();
    console.log(describeSmtpSuccess(config.email.smtpUrl));
  } catch (error) {
    console.error(
      `Warning: booking requests cannot be e-mailed: ${describeSmtpFailure(error, config.email.smtpUrl)} ` +
        `Requests are still stored, and their e-mails are retried until they get through: fix SMTP_URL ${inTheSettings} and restart the server.`,
    );
  }
}

function listen(server: Server, port: number, host: string, database: OpenedDatabase) {
  return new Promise<void>((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException) => {
      void database.close().finally(() => {
        const why = error.code && cannotListenBecause[error.code]?.(port, host);
        reject(why ? new CannotListenError(why) : error);
      });
    };
    server.once('error', refused);
    server.listen(port, host, () => {
      // Listening: a later error of the server's (out of file handles) is not a refusal
      // to listen, and must not close the database under a server that goes on answering 503.
      server.off('error', refused);
      resolve();
    });
  });
}

/** What each refusal to listen means, and what to do. */
const cannotListenBecause: Record<string, (port: number, host: string) => string> = {
  EADDRINUSE: (port, host) =>
    `Port ${port} on ${host} is already in use; stop the program using it or set PORT to another port.`,
  EACCES: (port) =>
    port < 1024
      ? `Port ${port} is reserved to root (below 1024): set PORT to 1024 or above (the default is 3000) and let Caddy or nginx serve 80 and 443 (docs/deploy.md).`
      : `This user may not listen on port ${port} (the system reserves it): set PORT to another port.`,
  EADDRNOTAVAIL: (_port, host) => `HOST=${host} is not an address of this machine: ${setHost}`,
  ENOTFOUND: (_port, host) => `HOST=${host} is not a name this machine can look up: ${setHost}`,
  EAI_AGAIN: (_port, host) =>
    `HOST=${host} could not be looked up (no name server answered): ${setHost}`,
};
const setHost =
  'set HOST to one of its addresses, 127.0.0.1 behind a proxy or 0.0.0.0 for every one.';

class CannotListenError extends Error {
  name = 'CannotListenError';
}

main().catch((error: unknown) => {
  // Problems of set-up (configuration, lock, database, disk, port) are explained by
  // their message alone; anything else keeps its stack.
  console.error(plainMessage(error, [CannotListenError]) ?? error);
  const refused = [
    ConfigError,
    DatabaseRefusedError,
    DataDirOwnerError,
    DataDirNotPrivateError,
    DataDirUnusableError,
    MigrationRefusedError,
  ].some((type) => error instanceof type);
  process.exit(refused ? refusedSetupExitStatus : 1);
});
