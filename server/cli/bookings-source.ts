import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ServerConfig } from '../../supabase/functions/_shared/config.ts';
import { createBookingAnswers } from '../../supabase/functions/_shared/db/booking-answers.ts';
import {
  createOwnerBookingsRepository,
  type BookingRange,
} from '../../supabase/functions/_shared/db/bookings-repository.ts';
import { DataDirLockedError } from '../db/data-dir-lock.ts';
import type { Database } from '../../supabase/functions/_shared/db/database.ts';
import { hasTable } from '../db/migrate.ts';
import { openDatabase } from '../db/open-database.ts';
import { commandSocketPath, socketPathFits } from '../db/pglite-socket.ts';
import { openPostgres } from '../../supabase/functions/_shared/db/postgres.ts';
import {
  createNotificationStates,
  type FailingNotification,
  type NotificationStatus,
} from '../../supabase/functions/_shared/notifications/notification-states.ts';
import type { BookingRecord } from './bookings-output.ts';

/**
 * Where `hijama` finds the requests, always by SQL:
 * - DATABASE_URL set: that PostgreSQL database (this project's or a Supabase
 *   project's), as its user, without running migrations;
 * - otherwise the embedded database in DATA_DIR, opened directly when no server
 *   holds it, or on the socket the running server shares it on when one does
 *   (the embedded database admits one process at a time; pglite-socket.ts).
 */

/** A problem the user can fix, explained by its message alone. */
export class CliError extends Error {
  name = 'CliError';
}

/** The database the command works on; `throughServer` when a running server shares it. */
export interface CommandDatabase {
  db: Database;
  /** "PGlite in ./data", "PostgreSQL at db.example/hijama", "the database of the server running on ./data". */
  description: string;
  throughServer: boolean;
}

/**
 * Runs `use` on the command's database once its table of requests is found,
 * then closes it. `migrate: false` reads the embedded database as it is,
 * unmigrated: a backup of a database this version refuses to migrate (made
 * before release 1.0.0).
 */
export async function withDatabase<T>(
  config: ServerConfig,
  use: (opened: CommandDatabase) => Promise<T>,
  options: { migrate?: boolean } = {},
): Promise<T> {
  const opened = await openForCommand(config, options);
  try {
    await requireTable(opened.db, 'public.bookings');
    return await use(opened);
  } finally {
    await opened.close();
  }
}

async function openForCommand(
  config: ServerConfig,
  options: { migrate?: boolean },
): Promise<CommandDatabase & { close(): Promise<void> }> {
  if (!config.databaseUrl && !existsSync(path.join(config.dataDir, 'pgdata'))) {
    throw new CliError(
      // Most often the command did not read the server's settings: run from
      // another folder, or as root on a server whose settings are in /etc/hijama.
      `There is no database in ${config.dataDir}: the command reads the settings of the folder it is run in, and the server keeps its data elsewhere, or has not run yet. ` +
        'Run it from the directory of the server (where its .env is), or, on a server set up as docs/deploy.md says, with its hijama command; or set DATA_DIR, or DATABASE_URL for a PostgreSQL or Supabase database.',
    );
  }
  try {
    // PostgreSQL is read as it is: the command runs no migrations there.
    const { db, close } = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      migrate: config.databaseUrl ? false : options.migrate,
      lockHolder: 'command',
    });
    return { db, description: db.description, throughServer: false, close };
  } catch (error) {
    // Another command (a restore, a backup) that has the database open itself shares
    // no socket: its lock's own message says to wait for it.
    if (error instanceof DataDirLockedError && error.owner.holder !== 'command') {
      return openServersSocket(config.dataDir);
    }
    throw error;
  }
}

/** The embedded database as the server holding it shares it (pglite-socket.ts). */
async function openServersSocket(
  dataDir: string,
): Promise<CommandDatabase & { close(): Promise<void> }> {
  const socketPath = commandSocketPath(dataDir);
  if (!socketPathFits(socketPath)) {
    throw new CliError(
      `A server is running on ${dataDir} and holds its database, which it shares on a socket in that folder, ` +
        `but the folder's path is too long for a socket (${socketPath}). Stop the server to run this command, ` +
        'or move DATA_DIR to a shorter path.',
    );
  }
  const connection = `postgres://postgres@localhost/postgres?host=${encodeURIComponent(path.dirname(socketPath))}`;
  let db: Database;
  try {
    db = await openPostgres(connection);
  } catch (error) {
    throw new CliError(
      `A server is running on ${dataDir} and holds its database, but its socket ${socketPath} does not answer ` +
        `(${(error as Error).message}). Restart the server with this version, or stop it: the command then opens the database itself.`,
    );
  }
  return {
    db,
    description: `the database of the server running on ${dataDir}`,
    throughServer: true,
    close: () => db.close(),
  };
}

/** Explains a database whose migrations have not been applied. */
export async function requireTable(db: Database, table: string) {
  if (!(await hasTable(db, table))) {
    throw new CliError(
      `The database has no table ${table}: apply the migrations of supabase/migrations first ` +
        '(start the server once, or `supabase db push` for a Supabase project).',
    );
  }
}

export interface ListQuery extends BookingRange {
  /** Undefined: all. */
  limit?: number;
  /** Oldest first instead of newest first. */
  oldestFirst?: boolean;
}

/**
 * The requests of `query`, newest first unless asked otherwise, each with the
 * state of its notification and its answer, each read in one call for every
 * request since the oldest listed. A database whose migrations were only
 * partly applied has no queue (every notification reads `none`) or no answers
 * (the records have no `answer`).
 */
export async function listRequests(db: Database, query: ListQuery): Promise<BookingRecord[]> {
  const rows = await createOwnerBookingsRepository(db).list(query, query);
  const records = rows.map(
    (row) => ({ ...row, created_at: toUtcIso(row.created_at ?? '') }) as BookingRecord,
  );
  if (records.length === 0) return records;
  const since = new Date(
    records.map((record) => record.created_at).reduce((a, b) => (b < a ? b : a)),
  );
  const states = (await hasTable(db, 'app_private.messages'))
    ? await createNotificationStates(db).receivedSince(since)
    : new Map<string, NotificationStatus>();
  const answers = (await hasTable(db, 'app_private.booking_answers'))
    ? await createBookingAnswers(db).answeredSince(since)
    : undefined;
  return records.map((record) => {
    const state = states.get(record.id);
    const answer = answers?.get(record.id);
    return {
      ...record,
      notification: state
        ? {
            state: state.state,
            attempts: state.attempts,
            last_error: state.lastError,
            reached_by: state.reachedBy,
          }
        : { state: 'none', attempts: 0, last_error: null, reached_by: [] },
      ...(answers && {
        answer: answer
          ? {
              answered_at: answer.answeredAt.toISOString(),
              channel: answer.channel,
              marked_by: answer.markedBy,
            }
          : null,
      }),
    };
  });
}

/** The notifications still failing, whatever their age. */
export async function failingNotifications(db: Database): Promise<FailingNotification[]> {
  if (!(await hasTable(db, 'app_private.messages'))) return [];
  return createNotificationStates(db).failing();
}

function toUtcIso(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}
