import { bookingFieldColumns } from '../../core/booking-rules.ts';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ServerConfig } from '../config.ts';
import { DataDirLockedError } from '../db/data-dir-lock.ts';
import type { Database } from '../db/database.ts';
import { openDatabase } from '../db/open-database.ts';
import { openPostgres } from '../db/postgres.ts';
import {
  createNotificationStates,
  type NotificationStatus,
} from '../notifications/notification-states.ts';
import { maxRowsPerRead } from '../routes/booking-query.ts';
import type { BookingRecord, FailingRecord, NotificationRecord } from './bookings-output.ts';

/**
 * Where `npm run bookings` finds the requests:
 * - DATABASE_URL set: that PostgreSQL database (this project's or a Supabase
 *   project's), as its user, without running migrations;
 * - otherwise the embedded database in DATA_DIR, opened directly when no server
 *   holds it, or through the running server's REST API with SERVICE_ROLE_KEY
 *   when one does (the embedded database admits one process at a time).
 */

export interface ListQuery {
  since?: Date;
  /** Undefined: all. */
  limit?: number;
}

export interface BookingsSource {
  /** "PGlite in ./data", "the server at http://127.0.0.1:3000"… */
  description: string;
  /** Newest first, each with the state of its notification. */
  list(query: ListQuery): Promise<BookingRecord[]>;
  /** Every notification whose last attempt failed, oldest request first. */
  failingNotifications(): Promise<FailingRecord[]>;
  /** How many requests were stored before `cutoff`. */
  countBefore(cutoff: Date): Promise<number>;
  /** Deletes the requests stored before `cutoff`, with their notifications; returns how many. */
  deleteBefore(cutoff: Date): Promise<number>;
  close(): Promise<void>;
}

/** A running server of a version that cannot tell the notifications' state. */
class OlderServerError extends Error {}

/** A problem the user can fix, explained by its message alone. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

export async function openBookingsSource(config: ServerConfig): Promise<BookingsSource> {
  const opened = await openDirect(config);
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
    const opened = await openDatabase({ databaseUrl: undefined, dataDir: config.dataDir });
    return { db: opened.db, close: opened.close };
  } catch (error) {
    if (error instanceof DataDirLockedError) return undefined;
    throw error;
  }
}

/** Explains a database whose migrations have not been applied. */
export async function requireTable(db: Database, table: string) {
  const { rows } = await db.query<{ found: boolean }>(
    'select to_regclass($1) is not null as found',
    [table],
  );
  if (rows[0]?.found !== true) {
    throw new CliError(
      `The database has no table ${table}: apply the migrations of supabase/migrations first ` +
        '(start the server once, or `supabase db push` for a Supabase project).',
    );
  }
}

function databaseSource(db: Database, close: () => Promise<void>): BookingsSource {
  return {
    description: db.description,
    async list({ since, limit }) {
      const params: unknown[] = [];
      let sql = `select id::text as id, to_json(created_at) #>> '{}' as created_at,
                   ${bookingFieldColumns.join(', ')}
                 from public.bookings`;
      if (since) {
        params.push(since.toISOString());
        sql += ` where created_at >= $${params.length}`;
      }
      sql += ' order by created_at desc, id';
      if (limit !== undefined) {
        params.push(limit);
        sql += ` limit $${params.length}`;
      }
      const { rows } = await db.query<BookingRecord>(sql, params);
      const oldest = rows.at(-1);
      const states =
        oldest && (await hasOutbox(db))
          ? await createNotificationStates(db).receivedSince(new Date(oldest.created_at))
          : new Map<string, NotificationStatus>();
      return rows.map((row) => ({
        ...row,
        created_at: toUtcIso(row.created_at),
        notification: notificationRecord(states.get(row.id)),
      }));
    },
    async failingNotifications() {
      if (!(await hasOutbox(db))) return [];
      return (await createNotificationStates(db).failing()).map((entry) => ({
        booking_id: entry.bookingId,
        created_at: entry.createdAt.toISOString(),
        attempts: entry.attempts,
        last_error: entry.lastError,
      }));
    },
    async countBefore(cutoff) {
      const { rows } = await db.query<{ count: number }>(
        'select count(*)::integer as count from public.bookings where created_at < $1',
        [cutoff.toISOString()],
      );
      return rows[0]?.count ?? 0;
    },
    async deleteBefore(cutoff) {
      // The outbox rows go with their bookings (on delete cascade).
      const { rows } = await db.query<{ count: number }>(
        `with deleted as (delete from public.bookings where created_at < $1 returning 1)
         select count(*)::integer as count from deleted`,
        [cutoff.toISOString()],
      );
      return rows[0]?.count ?? 0;
    },
    close,
  };
}

/** A database without the notifications migration has no states to read: every request reads `never`. */
async function hasOutbox(db: Database): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(
    `select to_regclass('app_private.booking_notifications') is not null as found`,
  );
  return rows[0]?.found === true;
}

function notificationRecord(status: NotificationStatus | undefined): NotificationRecord {
  return status
    ? { state: status.state, attempts: status.attempts, last_error: status.lastError }
    : { state: 'none', attempts: 0, last_error: null };
}

/** PostgreSQL's JSON form of a timestamp (any offset, microseconds) as JavaScript's UTC form. */
function toUtcIso(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

function httpSource(config: ServerConfig): BookingsSource {
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host === '::' ? '::1' : config.host;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${config.port}/rest/v1/bookings`;
  const description = `the server at ${new URL(base).origin}`;
  const key = config.serviceRoleKey;
  if (key === undefined) {
    throw new CliError(
      `A server is running on ${config.dataDir} and holds its database, so the requests are read through it, ` +
        'which needs SERVICE_ROLE_KEY. Set SERVICE_ROLE_KEY (at least 32 characters, e.g. from `openssl rand -hex 32`) ' +
        'in .env, restart the server so that it knows the key, then run this command again. ' +
        'Or stop the server: the command then opens the database itself.',
    );
  }
  if (config.port === 0) {
    throw new CliError(
      `A server is running on ${config.dataDir}, but PORT is 0 here, so its address is unknown. ` +
        'Run this command with the HOST and PORT of the server.',
    );
  }

  const request = async (query: URLSearchParams | string, init: RequestInit = {}) => {
    const url =
      typeof query === 'string' ? `${new URL(base).origin}/rest/v1/${query}` : `${base}?${query}`;
    let response: Response;
    try {
      response = await fetch(url, {
        ...init,
        headers: { apikey: key, Authorization: `Bearer ${key}`, ...init.headers },
        signal: AbortSignal.timeout(30_000),
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
    // A server of an older version knows no functions: /rest/v1/rpc/… is no path to it.
    if (response.status === 404 && typeof query === 'string') throw new OlderServerError();
    if (response.status === 405 && init.method === 'DELETE') {
      throw new CliError(
        `${description} cannot delete requests: it runs an older version. Restart it after \`npm run build\`.`,
      );
    }
    throw new CliError(
      `${description} answered ${response.status}${code ? ` ${code}` : ''}: ${message}`,
    );
  };

  const rpc = (name: string, args: unknown) =>
    request(`rpc/${name}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(args),
    });

  /**
   * The states, through the server's RPC, in one call for every request since
   * the oldest listed; none from a server too old to have it.
   */
  const withNotifications = async (records: BookingRecord[]): Promise<BookingRecord[]> => {
    const states = new Map<string, NotificationRecord>();
    const oldest = records.at(-1);
    if (!oldest) return records;
    try {
      const answer = (await (
        await rpc('booking_notification_states', { since: oldest.created_at })
      ).json()) as (NotificationRecord & { booking_id: string })[];
      for (const { booking_id, ...state } of answer) states.set(booking_id, state);
    } catch (error) {
      if (error instanceof OlderServerError) return records;
      throw error;
    }
    return records.map((record) => ({
      ...record,
      notification: states.get(record.id) ?? { state: 'none', attempts: 0, last_error: null },
    }));
  };

  const countFrom = (response: Response) => {
    const total = /\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1];
    if (total === undefined) throw new CliError(`${description} did not report a count.`);
    return Number(total);
  };

  return {
    description,
    async list({ since, limit }) {
      const records: BookingRecord[] = [];
      for (;;) {
        const pageSize = Math.min(
          maxRowsPerRead,
          limit === undefined ? maxRowsPerRead : limit - records.length,
        );
        if (pageSize <= 0) break;
        const query = new URLSearchParams({
          select: ['id', 'created_at', ...bookingFieldColumns].join(','),
          order: 'created_at.desc,id.asc',
          limit: String(pageSize),
          offset: String(records.length),
        });
        if (since) query.set('created_at', `gte.${since.toISOString()}`);
        const page = (await (await request(query)).json()) as BookingRecord[];
        records.push(...page.map((row) => ({ ...row, created_at: toUtcIso(row.created_at) })));
        if (page.length < pageSize) break;
      }
      return withNotifications(records);
    },
    async failingNotifications() {
      try {
        return (await (await rpc('failing_booking_notifications', {})).json()) as FailingRecord[];
      } catch (error) {
        if (error instanceof OlderServerError) return [];
        throw error;
      }
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
    close: async () => {},
  };
}
