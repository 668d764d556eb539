import { existsSync } from 'node:fs';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createApp } from './app.ts';
import { ConfigError } from './config.ts';
import { readBackup } from './db/backup.ts';
import { createBookingsRepository } from './db/bookings-repository.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { DatabaseUnavailableError } from './db/database.ts';
import { MigrationError } from './db/migrate.ts';
import { createHttpServer } from './http/http-server.ts';
import { DatabaseRoleError, openDatabase, type OpenedDatabase } from './db/open-database.ts';
import { consoleLog, createConfiguredNotifier, wakeAfterInserts } from './notifications/setup.ts';
import { describePeriod } from './retention/period.ts';
import { startRetention, type RetentionSchedule } from './retention/retention.ts';
import { loadSettings } from './settings.ts';

/** How long a stop waits for requests in flight before closing their connections. */
const shutdownGraceMs = 10_000;

async function main() {
  // Variables already set in the environment win over the file.
  if (existsSync('.env')) process.loadEnvFile('.env');
  const { server: config, notify: notifyConfig, retention, limits } = loadSettings();

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

  const bookings = createBookingsRepository(database.db);
  const notifications = notifyConfig
    ? createConfiguredNotifier(database.db, notifyConfig, consoleLog)
    : undefined;
  const app = createApp({
    bookings: notifications ? wakeAfterInserts(bookings, notifications.notifier) : bookings,
    backup: () => readBackup(database.db),
    keys: { anon: config.anonKey, serviceRole: config.serviceRoleKey },
    distDir: config.distDir,
    limits,
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
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  console.log(`Listening on http://${host}:${port} (${database.db.description})`);
  if (notifications) {
    notifications.notifier.start();
    const channels = notifications.channels.map((channel) => channel.description).join(' and ');
    console.log(`Booking requests are notified by ${channels}.`);
  }
  let retentionSchedule: RetentionSchedule | undefined;
  if (retention) {
    retentionSchedule = startRetention({
      bookings,
      period: retention,
      log: { info: consoleLog.info, error: (message, error) => console.error(message, error) },
    });
    console.log(
      `Booking requests older than ${describePeriod(retention)} are deleted at start and daily.`,
    );
  }

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => server.closeAllConnections(), shutdownGraceMs);
    force.unref();
    for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    // The send in progress finishes (or times out); nothing new is claimed.
    const background = Promise.all([notifications?.notifier.stop(), retentionSchedule?.stop()]);
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
}

function listen(server: Server, port: number, host: string, database: OpenedDatabase) {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      void database.close().finally(() => {
        reject(error.code === 'EADDRINUSE' ? new PortInUseError(port, host) : error);
      });
    });
    server.listen(port, host, () => resolve());
  });
}

class PortInUseError extends Error {
  constructor(port: number, host: string) {
    super(
      `Port ${port} on ${host} is already in use; stop the program using it or set PORT to another port.`,
    );
    this.name = 'PortInUseError';
  }
}

main().catch((error: unknown) => {
  // Problems of set-up (configuration, lock, database, port) are explained by
  // their message alone; anything else keeps its stack.
  const expected = [
    ConfigError,
    DataDirLockedError,
    DatabaseRoleError,
    DatabaseUnavailableError,
    MigrationError,
    PortInUseError,
  ];
  console.error(expected.some((type) => error instanceof type) ? (error as Error).message : error);
  process.exit(1);
});
