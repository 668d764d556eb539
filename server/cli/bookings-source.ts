import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ServerConfig } from '../../supabase/functions/_shared/config.ts';
import { readBackup, type Backup } from '../db/backup.ts';
import {
  createBookingAnswers,
  type AnswerChannel,
  type BookingAnswer,
} from '../../supabase/functions/_shared/db/booking-answers.ts';
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
import { createNotificationStates } from '../../supabase/functions/_shared/notifications/notification-states.ts';
import type {
  AnswerRecord,
  BookingRecord,
  FailingRecord,
  NotificationRecord,
} from './bookings-output.ts';

/** What marking a request answered did, with its answer as the command prints it. */
export type MarkAnswerRecord =
  { outcome: 'marked' | 'already answered'; answer: AnswerRecord } | { outcome: 'not found' };

/** What taking back a request's mark did, with the answer taken back as the command prints it. */
export type UnmarkAnswerRecord =
  { outcome: 'unmarked'; answer: AnswerRecord } | { outcome: 'not answered' | 'not found' };

/**
 * Where `hijama` finds the requests, always by SQL:
 * - DATABASE_URL set: that PostgreSQL database (this project's or a Supabase
 *   project's), as its user, without running migrations;
 * - otherwise the embedded database in DATA_DIR, opened directly when no server
 *   holds it, or on the socket the running server shares it on when one does
 *   (the embedded database admits one process at a time; pglite-socket.ts).
 */

export interface ListQuery extends BookingRange {
  /** Undefined: all. */
  limit?: number;
  /** Oldest first instead of newest first. */
  oldestFirst?: boolean;
}

export interface BookingsSource {
  /** "PGlite in ./data", "the database of the server running on ./data"… */
  description: string;
  /** Newest first unless asked otherwise, each with the state of its notification and its answer. */
  list(query: ListQuery): Promise<BookingRecord[]>;
  /** Marks the request `bookingId` answered by the command, unless it already is. */
  markAnswered(bookingId: string, channel: AnswerChannel | null): Promise<MarkAnswerRecord>;
  /** Takes back the mark of the request `bookingId`: it waits again. */
  unmarkAnswered(bookingId: string): Promise<UnmarkAnswerRecord>;
  /** Deletes the request `bookingId` with every row about it; false when it is not stored. */
  deleteRequest(bookingId: string): Promise<boolean>;
  /** The notifications still failing, whatever their age. */
  failingNotifications(): Promise<FailingRecord[]>;
  /** How many requests were stored before `cutoff`. */
  countBefore(cutoff: Date): Promise<number>;
  /** Deletes the requests stored before `cutoff`, with their notifications; returns how many. */
  deleteBefore(cutoff: Date): Promise<number>;
  /** Every table worth keeping, as one consistent snapshot (server/db/backup.ts). */
  backup(): Promise<Backup>;
  close(): Promise<void>;
}

/** A problem the user can fix, explained by its message alone. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

/**
 * `migrate: false` reads the embedded database as it is, unmigrated: a backup
 * of a database this version refuses to migrate (made before release 1.0.0).
 */
export async function openBookingsSource(
  config: ServerConfig,
  options: { migrate?: boolean } = {},
): Promise<BookingsSource> {
  const opened = await openForCommand(config, options);
  try {
    await requireTable(opened.db, 'public.bookings');
  } catch (error) {
    await opened.close();
    throw error;
  }
  return databaseSource(opened);
}

/** The database the command works on; `throughServer` when a running server shares it. */
export interface OpenedForCommand {
  db: Database;
  /** "PGlite in ./data", "PostgreSQL at db.example/hijama", "the database of the server running on ./data". */
  description: string;
  throughServer: boolean;
  close(): Promise<void>;
}

export async function openForCommand(
  config: ServerConfig,
  options: { migrate?: boolean } = {},
): Promise<OpenedForCommand> {
  if (config.databaseUrl) {
    const db = await openPostgres(config.databaseUrl);
    return { db, description: db.description, throughServer: false, close: () => db.close() };
  }
  if (!existsSync(path.join(config.dataDir, 'pgdata'))) {
    throw new CliError(
      `There is no database in ${config.dataDir} yet: the server has never run with this DATA_DIR. ` +
        'Run the command from the directory of the server (where its .env is), or set DATA_DIR, or DATABASE_URL for a PostgreSQL or Supabase database.',
    );
  }
  try {
    const opened = await openDatabase({
      databaseUrl: undefined,
      dataDir: config.dataDir,
      migrate: options.migrate,
    });
    return {
      db: opened.db,
      description: opened.db.description,
      throughServer: false,
      close: opened.close,
    };
  } catch (error) {
    if (error instanceof DataDirLockedError) return openServersSocket(config.dataDir);
    throw error;
  }
}

/** The embedded database as the server holding it shares it (pglite-socket.ts). */
async function openServersSocket(dataDir: string): Promise<OpenedForCommand> {
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

function databaseSource({ db, description, close }: OpenedForCommand): BookingsSource {
  const bookings = createOwnerBookingsRepository(db);
  // A database without the queue's migration has no states to read; asked once per command.
  let queueTable: Promise<boolean> | undefined;
  const hasQueue = () => (queueTable ??= hasTable(db, 'app_private.messages'));
  // Likewise a database without the answers migration has no answers to read or write.
  let answersTable: Promise<boolean> | undefined;
  const hasAnswers = () => (answersTable ??= hasTable(db, 'app_private.booking_answers'));
  const answers = createBookingAnswers(db);
  return {
    description,
    async list(query) {
      const rows = await bookings.list(query, query);
      const records = rows.map(
        (row) => ({ ...row, created_at: toUtcIso(row.created_at ?? '') }) as BookingRecord,
      );
      return withStates(records, {
        async notifications(since) {
          const states = new Map<string, NotificationRecord>();
          if (!(await hasQueue())) return states;
          const found = await createNotificationStates(db).receivedSince(since);
          for (const [bookingId, status] of found) {
            states.set(bookingId, {
              state: status.state,
              attempts: status.attempts,
              last_error: status.lastError,
            });
          }
          return states;
        },
        async answers(since) {
          if (!(await hasAnswers())) return undefined;
          const found = await answers.answeredSince(since);
          return new Map(
            [...found].map(([bookingId, answer]) => [bookingId, answerRecord(answer)]),
          );
        },
      });
    },
    async markAnswered(bookingId, channel) {
      if (!(await hasAnswers())) throw noAnswersTable();
      const result = await answers.markById(bookingId, channel);
      return result.outcome === 'not found'
        ? result
        : { outcome: result.outcome, answer: answerRecord(result.answer) };
    },
    async unmarkAnswered(bookingId) {
      if (!(await hasAnswers())) throw noAnswersTable();
      const result = await answers.unmarkById(bookingId);
      return result.outcome === 'unmarked'
        ? { outcome: result.outcome, answer: answerRecord(result.answer) }
        : result;
    },
    deleteRequest: async (bookingId) =>
      (await bookings.delete({ ids: { from: bookingId, to: bookingId } })) > 0,
    async failingNotifications() {
      if (!(await hasQueue())) return [];
      return (await createNotificationStates(db).failing()).map((entry) => ({
        booking_id: entry.bookingId,
        created_at: entry.createdAt.toISOString(),
        attempts: entry.attempts,
        last_error: entry.lastError,
      }));
    },
    countBefore: (cutoff) => bookings.count({ before: cutoff }),
    deleteBefore: (cutoff) => bookings.delete({ before: cutoff }),
    backup: () => readBackup(db),
    close,
  };
}

function answerRecord(answer: BookingAnswer): AnswerRecord {
  return {
    answered_at: answer.answeredAt.toISOString(),
    channel: answer.channel,
    marked_by: answer.markedBy,
  };
}

function noAnswersTable(): CliError {
  return new CliError(
    'The database has no table app_private.booking_answers: apply supabase/migrations/20261201000200_notifications.sql ' +
      '(`supabase db push` for a Supabase project, or start the server once).',
  );
}

const noNotification: NotificationRecord = { state: 'none', attempts: 0, last_error: null };

/** Reads the states of the requests received since an instant, by booking id; undefined when the source cannot say. */
type StatesSince<State> = (since: Date) => Promise<Map<string, State> | undefined>;

/**
 * The records with the state of their notifications and their answers, each
 * read in one call for every request since the oldest listed; a record is
 * left without a state its reader could not say (a database whose migrations
 * were only partly applied).
 */
async function withStates(
  records: BookingRecord[],
  read: { notifications: StatesSince<NotificationRecord>; answers: StatesSince<AnswerRecord> },
): Promise<BookingRecord[]> {
  const oldest = records.reduce<string | undefined>(
    (earliest, record) =>
      earliest === undefined || record.created_at < earliest ? record.created_at : earliest,
    undefined,
  );
  if (!oldest) return records;
  const since = new Date(oldest);
  const notifications = await read.notifications(since);
  const answers = await read.answers(since);
  return records.map((record) => ({
    ...record,
    ...(notifications && { notification: notifications.get(record.id) ?? noNotification }),
    ...(answers && { answer: answers.get(record.id) ?? null }),
  }));
}

function toUtcIso(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}
