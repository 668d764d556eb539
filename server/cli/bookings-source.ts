import {
  backupPath,
  bookingsTable,
  maxRowsPerRead,
} from '../../supabase/functions/_shared/core/api-defaults.ts';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ServerConfig } from '../../supabase/functions/_shared/config.ts';
import { parseBackup, readBackup, type Backup } from '../db/backup.ts';
import {
  createBookingAnswers,
  type AnswerChannel,
  type BookingAnswer,
} from '../../supabase/functions/_shared/db/booking-answers.ts';
import {
  bookingTableColumns,
  createOwnerBookingsRepository,
  type BookingFilter,
} from '../../supabase/functions/_shared/db/bookings-repository.ts';
import { DataDirLockedError, localUrl, lockedServerUrl } from '../db/data-dir-lock.ts';
import type { Database } from '../../supabase/functions/_shared/db/database.ts';
import { hasTable } from '../db/migrate.ts';
import { readStoredServiceKey, storedServiceKeyPath } from '../db/stored-service-key.ts';
import { openDatabase } from '../db/open-database.ts';
import { openPostgres } from '../../supabase/functions/_shared/db/postgres.ts';
import { createNotificationStates } from '../../supabase/functions/_shared/notifications/notification-states.ts';
import { createOutbox } from '../../supabase/functions/_shared/notifications/outbox.ts';
import type {
  AnswerRecord,
  BookingRecord,
  FailingRecord,
  NotificationRecord,
} from './bookings-output.ts';
import type { RequestReference } from './request-reference.ts';

/** What marking a request answered did, with its answer as the command prints it. */
export type MarkAnswerRecord =
  { outcome: 'marked' | 'already answered'; answer: AnswerRecord } | { outcome: 'not found' };

/** What taking back a request's mark did, with the answer taken back as the command prints it. */
export type UnmarkAnswerRecord =
  { outcome: 'unmarked'; answer: AnswerRecord } | { outcome: 'not answered' | 'not found' };

/**
 * Where `hijama` finds the requests:
 * - DATABASE_URL set: that PostgreSQL database (this project's or a Supabase
 *   project's), as its user, without running migrations;
 * - otherwise the embedded database in DATA_DIR, opened directly when no server
 *   holds it, or through the running server's REST API with SERVICE_ROLE_KEY
 *   when one does (the embedded database admits one process at a time).
 */

export interface ListQuery {
  /** Only the requests whose id is in this range (a short reference, or one id). */
  ids?: Pick<RequestReference, 'from' | 'to'>;
  /** Received at or after. */
  since?: Date;
  /** Received strictly before. */
  before?: Date;
  /** Undefined: all. */
  limit?: number;
  /** Oldest first instead of newest first. */
  oldestFirst?: boolean;
}

export interface BookingsSource {
  /** "PGlite in ./data", "the server at http://127.0.0.1:3000"… */
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
  const opened = await openDirect(config, options);
  if (opened) {
    try {
      await requireTable(opened.db, 'public.bookings');
    } catch (error) {
      await opened.close();
      throw error;
    }
    return databaseSource(opened.db, opened.close);
  }
  return httpSource(config);
}

/**
 * The database itself, for the commands that cannot go through the REST API
 * (the notifier): undefined when a running server holds the embedded database.
 */
export async function openDirect(
  config: ServerConfig,
  options: { migrate?: boolean } = {},
): Promise<{ db: Database; close: () => Promise<void> } | undefined> {
  if (config.databaseUrl) {
    const db = await openPostgres(config.databaseUrl);
    return { db, close: () => db.close() };
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
    return { db: opened.db, close: opened.close };
  } catch (error) {
    if (error instanceof DataDirLockedError) return undefined;
    throw error;
  }
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

function databaseSource(db: Database, close: () => Promise<void>): BookingsSource {
  const bookings = createOwnerBookingsRepository(db);
  // A database without the notifications migration has no states to read; asked once per command.
  let outbox: Promise<boolean> | undefined;
  const hasOutbox = () => (outbox ??= createOutbox(db).exists());
  // Likewise a database without the answers migration has no answers to read or write.
  let answersTable: Promise<boolean> | undefined;
  const hasAnswers = () => (answersTable ??= hasTable(db, 'app_private.booking_answers'));
  const answers = createBookingAnswers(db);
  return {
    description: db.description,
    async list(query) {
      const { rows } = await bookings.select({
        columns: bookingTableColumns,
        filters: listFilters(query),
        order: [
          { column: 'created_at', descending: !query.oldestFirst },
          { column: 'id', descending: false },
        ],
        limit: query.limit,
        countTotal: false,
      });
      const records = rows.map(
        (row) => ({ ...row, created_at: toUtcIso(row.created_at ?? '') }) as BookingRecord,
      );
      return withStates(records, {
        async notifications(since) {
          const states = new Map<string, NotificationRecord>();
          if (!(await hasOutbox())) return states;
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
    deleteRequest: async (bookingId) => (await bookings.delete(idFilter(bookingId))) > 0,
    async failingNotifications() {
      if (!(await hasOutbox())) return [];
      return (await createNotificationStates(db).failing()).map((entry) => ({
        booking_id: entry.bookingId,
        created_at: entry.createdAt.toISOString(),
        attempts: entry.attempts,
        last_error: entry.lastError,
      }));
    },
    async countBefore(cutoff) {
      const { total } = await bookings.select({
        columns: ['id'],
        filters: listFilters({ before: cutoff }),
        order: [],
        limit: 0,
        countTotal: true,
      });
      return total ?? 0;
    },
    deleteBefore: (cutoff) => bookings.delete(listFilters({ before: cutoff })),
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

function idFilter(bookingId: string): BookingFilter[] {
  return [{ column: 'id', operator: 'eq', value: bookingId, negated: false }];
}

function listFilters({ ids, since, before }: ListQuery): BookingFilter[] {
  const filters: BookingFilter[] = [];
  if (ids) {
    filters.push({ column: 'id', operator: 'gte', value: ids.from, negated: false });
    filters.push({ column: 'id', operator: 'lte', value: ids.to, negated: false });
  }
  if (since) {
    filters.push({
      column: 'created_at',
      operator: 'gte',
      value: since.toISOString(),
      negated: false,
    });
  }
  if (before) {
    filters.push({
      column: 'created_at',
      operator: 'lt',
      value: before.toISOString(),
      negated: false,
    });
  }
  return filters;
}

/** PostgreSQL's JSON form of a timestamp (any offset, microseconds) as JavaScript's UTC form. */
function toUtcIso(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

function httpSource(config: ServerConfig): BookingsSource {
  // The server writes where it listens into its lock: PORT here may differ, or be 0.
  const recorded = lockedServerUrl(config.dataDir);
  const origin = recorded ?? localUrl(config.host, config.port);
  const description = `the server at ${origin}`;
  const key = config.serviceRoleKey ?? storedKey(config.dataDir);
  if (key === undefined) {
    throw new CliError(
      `A server is running on ${config.dataDir} and holds its database, so the requests are read through it, ` +
        `which needs the service key: the server makes one at start in ${storedServiceKeyPath(config.dataDir)} when SERVICE_ROLE_KEY is unset, ` +
        'and there is none. Restart the server with this version, or set the same SERVICE_ROLE_KEY (at least 32 characters, e.g. from `openssl rand -hex 32`) ' +
        'for both in .env, then run this command again. Or stop the server: the command then opens the database itself.',
    );
  }
  if (recorded === undefined && config.port === 0) {
    throw new CliError(
      `A server is running on ${config.dataDir}, but PORT is 0 here, so its address is unknown. ` +
        'Run this command with the HOST and PORT of the server.',
    );
  }

  const request = async (
    query: URLSearchParams,
    init: RequestInit = {},
    where: string = `/rest/v1/${bookingsTable}`,
  ) => {
    const url = `${origin}${where}?${query}`;
    let response: Response;
    try {
      response = await fetch(url, {
        ...init,
        headers: { apikey: key, Authorization: `Bearer ${key}`, ...init.headers },
        signal: AbortSignal.timeout(120_000),
      });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      throw new CliError(
        `A server holds the database in ${config.dataDir}, but ${description} cannot be reached ` +
          `(${cause instanceof Error ? cause.message : String(cause)}). ` +
          'Run this command with the HOST and PORT that server uses, or stop it so that the command opens the database itself.',
      );
    }
    if (response.ok) return response;
    const body = await response.text();
    let code: string | undefined;
    let message = body.slice(0, 300);
    try {
      const parsed = JSON.parse(body) as { code?: string; message?: string };
      code = parsed.code;
      message = parsed.message ?? message;
    } catch {
      // Not PostgREST's shape; the text is shown as it is.
    }
    if (response.status === 401) {
      throw new CliError(
        `${description} refused SERVICE_ROLE_KEY (${message}). ` +
          'The server was started with another key, or with none: give it the same SERVICE_ROLE_KEY as this command and restart it.',
      );
    }
    throw new CliError(
      `${description} answered ${response.status}${code ? ` ${code}` : ''}: ${message}`,
    );
  };

  const rpc = (name: string, args: unknown) =>
    request(
      new URLSearchParams(),
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(args),
      },
      `/rest/v1/rpc/${name}`,
    );

  /** The states one of the server's functions answers by booking id. */
  const statesSince =
    <State>(name: string): StatesSince<State> =>
    async (since) => {
      const answer = (await (await rpc(name, { since: since.toISOString() })).json()) as (State & {
        booking_id: string;
      })[];
      return new Map(answer.map(({ booking_id, ...state }) => [booking_id, state as State]));
    };
  const readStates = {
    notifications: statesSince<NotificationRecord>('booking_notification_states'),
    answers: statesSince<AnswerRecord>('booking_answer_states'),
  };

  const countFrom = (response: Response) => {
    const total = /\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1];
    if (total === undefined) throw new CliError(`${description} did not report a count.`);
    return Number(total);
  };

  return {
    description,
    async list({ ids, since, before, limit, oldestFirst }) {
      const records: BookingRecord[] = [];
      for (;;) {
        const pageSize = Math.min(
          maxRowsPerRead,
          limit === undefined ? maxRowsPerRead : limit - records.length,
        );
        if (pageSize <= 0) break;
        const query = new URLSearchParams({
          select: bookingTableColumns.join(','),
          order: `created_at.${oldestFirst ? 'asc' : 'desc'},id.asc`,
          limit: String(pageSize),
          offset: String(records.length),
        });
        if (ids) {
          query.append('id', `gte.${ids.from}`);
          query.append('id', `lte.${ids.to}`);
        }
        if (since) query.append('created_at', `gte.${since.toISOString()}`);
        if (before) query.append('created_at', `lt.${before.toISOString()}`);
        const page = (await (await request(query)).json()) as BookingRecord[];
        records.push(...page.map((row) => ({ ...row, created_at: toUtcIso(row.created_at) })));
        if (page.length < pageSize) break;
      }
      return withStates(records, readStates);
    },
    async markAnswered(bookingId, channel) {
      const { outcome, ...answer } = (await (
        await rpc('answer_booking_request', { booking_id: bookingId, channel })
      ).json()) as { outcome: MarkAnswerRecord['outcome'] } & AnswerRecord;
      return outcome === 'not found' ? { outcome } : { outcome, answer };
    },
    async unmarkAnswered(bookingId) {
      const { outcome, ...answer } = (await (
        await rpc('unanswer_booking_request', { booking_id: bookingId })
      ).json()) as { outcome: UnmarkAnswerRecord['outcome'] } & AnswerRecord;
      return outcome === 'unmarked' ? { outcome, answer } : { outcome };
    },
    async deleteRequest(bookingId) {
      const query = new URLSearchParams({ id: `eq.${bookingId}` });
      return (
        countFrom(await request(query, { method: 'DELETE', headers: { Prefer: 'count=exact' } })) >
        0
      );
    },
    async failingNotifications() {
      return (await (await rpc('failing_booking_notifications', {})).json()) as FailingRecord[];
    },
    async countBefore(cutoff) {
      const query = new URLSearchParams({ select: 'id', limit: '0' });
      query.set('created_at', `lt.${cutoff.toISOString()}`);
      return countFrom(await request(query, { headers: { Prefer: 'count=exact' } }));
    },
    async deleteBefore(cutoff) {
      const query = new URLSearchParams({ created_at: `lt.${cutoff.toISOString()}` });
      return countFrom(
        await request(query, { method: 'DELETE', headers: { Prefer: 'count=exact' } }),
      );
    },
    async backup() {
      const response = await request(new URLSearchParams(), {}, backupPath);
      try {
        return parseBackup(await response.text());
      } catch (error) {
        throw new CliError(`The backup ${description} sent ${(error as Error).message}`);
      }
    },
    close: async () => {},
  };
}

/** The key the server stored in its data folder (stored-service-key.ts). */
function storedKey(dataDir: string): string | undefined {
  try {
    return readStoredServiceKey(dataDir);
  } catch (error) {
    throw new CliError(
      `Cannot read the server's service key in ${storedServiceKeyPath(dataDir)} (${(error as Error).message}): ` +
        'run this command as the user the server runs as (e.g. sudo -u hijama npx hijama …), or set SERVICE_ROLE_KEY for both.',
    );
  }
}
