import { bookingProofHeader } from '../core/booking-proof.ts';
import { bookingFieldColumns } from '../core/booking-rules.ts';
import type { BookingRow } from '../core/booking-row.ts';
import type { Database } from './database.ts';

/**
 * The bookings table, seen through the roles that row-level security knows:
 * inserts run as `anon`, so the database itself enforces the insert-only policy;
 * the practice's command reads and deletes as the tables' owner. Column names come from fixed lists, values are always
 * bound parameters.
 */

/** Every column of `public.bookings` that can be read, in table order. */
export const bookingTableColumns = ['id', 'created_at', ...bookingFieldColumns] as const;

export type BookingTableColumn = (typeof bookingTableColumns)[number];

/** Which requests the practice's command means: each bound is optional. */
export interface BookingRange {
  /** Ids from `from` to `to`, both included: a short reference, or one id. */
  ids?: { from: string; to: string };
  /** Received at or after. */
  since?: Date;
  /** Received strictly before. */
  before?: Date;
}

/** A stored request as the command reads it: every column, as text. */
export type StoredBooking = Record<BookingTableColumn, string | null>;

/**
 * A row to insert: the booking, and the honeypot `website` as sent (absent or
 * null for people). The database drops a row that fills it.
 */
export type BookingInsert = BookingRow & { website?: string | null };

export interface AnonRequest {
  /**
   * The client's address as the server trusts it (TRUST_PROXY); unset when
   * unknown, which the database counts in one shared bucket.
   */
  clientAddress?: string;
  /** The request's proof of work (the X-Booking-Proof header), asked for during a flood. */
  proof?: string;
}

/**
 * The request headers the database reads (request.headers, as PostgREST
 * passes them): the client's address, which hosted Supabase's front sets and
 * overwrites and this server sets from the address it trusts, and the proof of
 * work. Nothing else the client sent reaches the database.
 */
export const databaseRequestHeaders = {
  clientAddress: 'cf-connecting-ip',
  proof: bookingProofHeader,
} as const;

export interface BookingsRepository {
  /**
   * Inserts all rows or none, as `anon`; never reads them back (insert-only RLS
   * forbids it). The client's address is passed to the database's limits.
   */
  insertAsAnon(rows: readonly BookingInsert[], request: AnonRequest): Promise<void>;
}

// The id as text and created_at in json's ISO 8601 form, the same on both engines.
const castColumns: Partial<Record<BookingTableColumn, string>> = {
  id: 'id::text as id',
  created_at: `to_json(created_at) #>> '{}' as created_at`,
};
const selectedColumns = bookingTableColumns
  .map((column) => castColumns[column] ?? column)
  .join(', ');

export function createBookingsRepository(db: Database): BookingsRepository {
  return {
    insertAsAnon: async (rows, request) => {
      if (rows.length === 0) return;
      const headers = JSON.stringify(
        Object.fromEntries(
          Object.entries(databaseRequestHeaders)
            .map(([key, header]) => [header, request[key as keyof AnonRequest]])
            .filter(([, value]) => value !== undefined && value !== ''),
        ),
      );
      const { sql, params } = insertStatement(rows);
      // It first gives the database the client's address as PostgREST would
      // (request.headers), for the limits per network and the proof of work; the setting ends with
      // the statement's transaction.
      await db.queryAsAnon(
        `${sql} where set_config('request.headers', $${params.length + 1}, true) is not null`,
        [...params, headers],
      );
    },
  };
}

/**
 * The reads and deletes of the practice's own command (`hijama list`, `purge`),
 * run as the connection's user: the tables' owner, which row-level security
 * does not restrict. The command may connect where it cannot switch roles (a
 * Supabase project's `postgres` user), so it does not try.
 */
export function createOwnerBookingsRepository(db: Database) {
  return {
    /** The requests in `range`, newest first unless `oldestFirst`, at most `limit` (undefined: all). */
    async list(
      range: BookingRange,
      { limit, oldestFirst = false }: { limit?: number; oldestFirst?: boolean } = {},
    ) {
      const { where, params } = rangeCondition(range);
      const order = `created_at ${oldestFirst ? 'asc' : 'desc'}, id`;
      const limited = limit === undefined ? '' : ` limit ${Math.max(0, Math.floor(limit))}`;
      const { rows } = await db.query<StoredBooking>(
        `select ${selectedColumns} from public.bookings where ${where} order by ${order}${limited}`,
        params,
      );
      return rows;
    },
    async count(range: BookingRange) {
      const { where, params } = rangeCondition(range);
      const { rows } = await db.query<{ total: number }>(
        `select count(*)::integer as total from public.bookings where ${where}`,
        params,
      );
      return rows[0]?.total ?? 0;
    },
    /** Deletes the requests in `range` (at least one bound), with their notifications; returns how many. */
    async delete(range: BookingRange) {
      const { where, params } = rangeCondition(range);
      if (params.length === 0) throw new Error('Refusing to delete every booking: no bound.');
      // The outbox rows go with their bookings (on delete cascade).
      const { rows } = await db.query<{ deleted: number }>(
        `with deleted as (delete from public.bookings where ${where} returning 1)
         select count(*)::integer as deleted from deleted`,
        params,
      );
      return rows[0]?.deleted ?? 0;
    },
  };
}

/** The condition of `range`, its values bound as parameters; "true" when it has no bound. */
function rangeCondition({ ids, since, before }: BookingRange) {
  const params: unknown[] = [];
  const conditions: string[] = [];
  const bound = (condition: string, value: unknown) => {
    params.push(value);
    conditions.push(`${condition} $${params.length}`);
  };
  if (ids) {
    bound('id >=', ids.from);
    bound('id <=', ids.to);
  }
  if (since) bound('created_at >=', since.toISOString());
  if (before) bound('created_at <', before.toISOString());
  return { where: conditions.length > 0 ? conditions.join(' and ') : 'true', params };
}

const insertedColumns = ['id', ...bookingFieldColumns, 'website'] as const;

/** One statement for every row, so that all are stored or none; ends where a `where` may follow. */
function insertStatement(rows: readonly BookingInsert[]): { sql: string; params: unknown[] } {
  const values = rows.map(
    (_row, rowIndex) =>
      `(${insertedColumns.map((column, index) => `$${rowIndex * insertedColumns.length + index + 1}${column === 'id' ? '::uuid' : ''}`).join(', ')})`,
  );
  const list = insertedColumns.join(', ');
  return {
    sql: `insert into public.bookings (${list}) select * from (values ${values.join(', ')}) as request (${list})`,
    params: rows.flatMap((row) => insertedColumns.map((column) => row[column] ?? null)),
  };
}
