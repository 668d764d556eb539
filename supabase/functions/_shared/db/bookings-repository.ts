import { bookingProofHeader } from '../core/booking-proof.ts';
import { bookingFieldColumns } from '../core/booking-rules.ts';
import type { BookingRow } from '../core/booking-row.ts';
import type { Database, Queryable } from './database.ts';

/**
 * The bookings table, seen through the roles that row-level security knows:
 * inserts run as `anon`, so the database itself enforces the insert-only policy;
 * the practice's command reads and deletes as the tables' owner. Column names come from fixed lists, values are always
 * bound parameters.
 */

/** Every column of `public.bookings` that can be read, in table order. */
export const bookingTableColumns = ['id', 'created_at', ...bookingFieldColumns] as const;

export type BookingTableColumn = (typeof bookingTableColumns)[number];

export type ComparisonOperator = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte';

export type BookingFilter =
  | { column: BookingTableColumn; operator: ComparisonOperator; value: string; negated: boolean }
  | { column: BookingTableColumn; operator: 'is null'; negated: boolean };

export interface BookingOrder {
  column: BookingTableColumn;
  descending: boolean;
  /** PostgreSQL's default when unset: nulls last ascending, first descending. */
  nullsFirst?: boolean;
}

export interface BookingSelection {
  columns: readonly BookingTableColumn[];
  filters: readonly BookingFilter[];
  order: readonly BookingOrder[];
  limit?: number;
  offset?: number;
  /** Also count every row matching the filters, ignoring limit and offset. */
  countTotal: boolean;
}

export interface BookingSelectionResult {
  rows: Partial<Record<BookingTableColumn, string | null>>[];
  total?: number;
}

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

const quoted = Object.fromEntries(
  bookingTableColumns.map((column) => [column, `"${column}"`]),
) as Record<BookingTableColumn, string>;

// Rendered as PostgREST does (json's ISO 8601 form), the same on both engines.
const selected: Record<BookingTableColumn, string> = {
  ...quoted,
  id: '"id"::text as "id"',
  created_at: `to_json("created_at") #>> '{}' as "created_at"`,
};

const comparisons: Record<ComparisonOperator, string> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
};

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
export interface OwnerBookingsRepository {
  select(selection: BookingSelection): Promise<BookingSelectionResult>;
  /** Deletes the rows matching every filter (at least one), with their notifications; returns how many. */
  delete(filters: readonly BookingFilter[]): Promise<number>;
}

export function createOwnerBookingsRepository(db: Database): OwnerBookingsRepository {
  return {
    select: (selection) =>
      db.transaction(async (tx) => {
        await tx.query(`set local time zone 'UTC'`);
        return select(tx, selection);
      }),
    delete: async (filters) => {
      if (filters.length === 0) throw new Error('Refusing to delete every booking: no filter.');
      return db.transaction(async (tx) => {
        // The outbox rows go with their bookings (on delete cascade).
        const params: unknown[] = [];
        const where = whereClause(filters, params);
        const { rows } = await tx.query<{ deleted: number }>(
          `with deleted as (delete from public.bookings${where} returning 1) select count(*)::integer as deleted from deleted`,
          params,
        );
        return rows[0]?.deleted ?? 0;
      });
    },
  };
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

/** ` where …` for `filters` (empty when none), binding their values into `params`. */
function whereClause(filters: readonly BookingFilter[], params: unknown[]): string {
  const bind = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const conditions = filters.map((filter) => {
    const condition =
      filter.operator === 'is null'
        ? `${quoted[filter.column]} is null`
        : `${quoted[filter.column]} ${comparisons[filter.operator]} ${bind(filter.value)}`;
    return filter.negated ? `not (${condition})` : condition;
  });
  return conditions.length > 0 ? ` where ${conditions.join(' and ')}` : '';
}

async function select(tx: Queryable, selection: BookingSelection): Promise<BookingSelectionResult> {
  const params: unknown[] = [];
  const bind = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };

  const where = whereClause(selection.filters, params);
  const filterParams = [...params];

  const columns = [...new Set(selection.columns)].map((column) => selected[column]);
  const order = selection.order.map(
    ({ column, descending, nullsFirst }) =>
      `${quoted[column]} ${descending ? 'desc' : 'asc'}` +
      (nullsFirst === undefined ? '' : nullsFirst ? ' nulls first' : ' nulls last'),
  );
  let sql = `select ${columns.join(', ')} from public.bookings${where}`;
  if (order.length > 0) sql += ` order by ${order.join(', ')}`;
  if (selection.limit !== undefined) sql += ` limit ${bind(selection.limit)}`;
  if (selection.offset !== undefined) sql += ` offset ${bind(selection.offset)}`;

  const { rows } = await tx.query<Partial<Record<BookingTableColumn, string | null>>>(sql, params);
  if (!selection.countTotal) return { rows };
  const counted = await tx.query<{ total: number }>(
    `select count(*)::integer as total from public.bookings${where}`,
    filterParams,
  );
  return { rows, total: counted.rows[0]?.total ?? 0 };
}
