/**
 * The little the server needs from a database, implemented by PGlite (pglite.ts)
 * and by a PostgreSQL server (postgres.ts). Driver errors are translated here so
 * that nothing above the data layer depends on a driver.
 */

export interface QueryResult<Row> {
  rows: Row[];
}

export interface Queryable {
  /** One statement with bound parameters (`$1`, `$2`, …). */
  query<Row = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<QueryResult<Row>>;
  /** A script of several statements without parameters, such as a migration file. */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly engine: 'pglite' | 'postgres';
  /** Where the data lives, for the start-up line (never includes a password). */
  readonly description: string;
  /** Runs `work` in one transaction: committed if it resolves, rolled back if it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * One statement as the `anon` role, so that its privileges and row-level
   * security apply; on its own, the statement is all or nothing.
   */
  queryAsAnon(sql: string, params: readonly unknown[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * `queryAsAnon` the plain way: the role switched for one transaction. Engines
 * without a connection that starts as anon use it.
 */
export async function queryAsAnonInTransaction(
  db: Pick<Database, 'transaction'>,
  sql: string,
  params: readonly unknown[],
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('set local role anon');
    await tx.query(sql, params);
  });
}

/** An error reported by PostgreSQL itself, with its SQLSTATE code. */
export class DatabaseError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly detail: string | undefined,
    readonly hint: string | undefined,
    readonly constraint: string | undefined,
  ) {
    super(message);
    this.name = 'DatabaseError';
  }
}

/** The database could not be reached (connection refused, lost, timed out, closed). */
export class DatabaseUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseUnavailableError';
  }
}

/**
 * The database refused the connection's own settings: no such database
 * (3D000), user (28000) or password (28P01), or no right to connect (42501).
 * Trying again does not mend it; DATABASE_URL must change.
 */
export class DatabaseRefusedError extends DatabaseUnavailableError {
  static readonly codes: ReadonlySet<string> = new Set(['3D000', '28000', '28P01', '42501']);

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseRefusedError';
  }
}

const sqlState = /^[0-9A-Z]{5}$/;

/**
 * Both drivers throw errors carrying PostgreSQL's fields; `severity` tells them
 * apart from Node's system errors, whose codes (EPIPE…) can look alike.
 */
export function translateDriverError(error: unknown): Error {
  if (error instanceof DatabaseError || error instanceof DatabaseUnavailableError) return error;
  const fields = (typeof error === 'object' && error !== null ? error : {}) as Record<
    string,
    unknown
  >;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const code = text(fields.code);
  if (code && sqlState.test(code) && fields.severity !== undefined) {
    // Class 08 is a connection failure, 57P01-57P03 an administrator shutdown.
    if (code.startsWith('08') || /^57P0[123]$/.test(code)) {
      return new DatabaseUnavailableError(text(fields.message) ?? code, { cause: error });
    }
    return new DatabaseError(
      code,
      text(fields.message) ?? 'database error',
      text(fields.detail),
      text(fields.hint),
      text(fields.constraint),
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new DatabaseUnavailableError(message, { cause: error });
}
