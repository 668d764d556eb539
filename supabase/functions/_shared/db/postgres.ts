import pg from 'pg';
import {
  DatabaseError,
  DatabaseRefusedError,
  DatabaseUnavailableError,
  queryAsAnonInTransaction,
  translateDriverError,
  type Database,
  type Queryable,
} from './database.ts';

/**
 * How long a query may wait for the server's answer before the connection is
 * given up: a little longer than the server's own statement timeout, so that
 * a slow statement is reported by the server, and a silent one (a network
 * partition: nothing arrives, nothing closes) does not hold a request for the
 * quarter of an hour the kernel would take.
 */
const defaultQueryTimeoutMs = 20_000;

/** Connects to a PostgreSQL server through a small pool; fails fast when it is unreachable. */
export async function openPostgres(
  connectionString: string,
  /** `setting`: the setting that holds the connection string, named when it is refused. */
  options: { queryTimeoutMs?: number; setting?: string } = {},
): Promise<Database> {
  const { setting = 'DATABASE_URL' } = options;
  const settings: pg.PoolConfig = {
    connectionString,
    max: 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // A stuck statement must not hold a request (and a pooled connection) forever…
    statement_timeout: 15_000,
    // …nor a database that stopped answering without closing the connection.
    query_timeout: options.queryTimeoutMs ?? defaultQueryTimeoutMs,
    keepAlive: true,
    application_name: 'hijama-server',
  };
  const pool = new pg.Pool(settings);
  // Connections that start as anon: a visitor's insert is then one round trip
  // instead of begin, set role, insert and commit.
  const anonPool = new pg.Pool({ ...settings, options: '-c role=anon' });
  // An idle connection dropped by the server must not crash the process; the
  // pool replaces it and the next query reports the outage.
  pool.on('error', () => {});
  anonPool.on('error', () => {});
  const database = new PostgresDatabase(pool, anonPool, describe(connectionString));
  try {
    await database.query('select 1');
  } catch (error) {
    await Promise.all([pool.end(), anonPool.end()]).catch(() => {});
    if (error instanceof DatabaseError && DatabaseRefusedError.codes.has(error.code)) {
      throw new DatabaseRefusedError(
        `${setting}: ${database.description} refused the connection: ${error.message} (${error.code}). Check the database name, the user and the password in ${setting}.`,
        { cause: error },
      );
    }
    if (error instanceof DatabaseUnavailableError) {
      throw new DatabaseUnavailableError(
        `Could not connect to ${database.description}: ${error.message}`,
        { cause: error },
      );
    }
    throw error;
  }
  return database;
}

class PostgresDatabase implements Database {
  readonly engine = 'postgres';

  constructor(
    private readonly pool: pg.Pool,
    private readonly anonPool: pg.Pool,
    readonly description: string,
  ) {
    ({ query: this.query, exec: this.exec } = queryable(pool));
    this.anonQuery = queryable(anonPool).query;
  }

  readonly query: Queryable['query'];
  readonly exec: Queryable['exec'];
  /** The anon pool's queries, its errors translated. */
  private readonly anonQuery: Queryable['query'];

  /** Whether connections of the anon pool really start as anon; settled on first use. */
  private anonPoolWorks: Promise<boolean> | undefined;

  async queryAsAnon(sql: string, params: readonly unknown[]) {
    if (await this.checkAnonPool()) await this.anonQuery(sql, params);
    else await queryAsAnonInTransaction(this, sql, params);
  }

  /**
   * A connection pooler in front of PostgreSQL (PgBouncer, Supavisor) may refuse
   * the startup option that sets the role, or drop it silently, in which case
   * the insert would run as the server's own user. Checked once; where the
   * option does not work, every insert sets the role in a transaction instead.
   */
  private checkAnonPool(): Promise<boolean> {
    this.anonPoolWorks ??= this.anonPool
      .query<{ role: string }>('select current_user as role')
      .then(
        ({ rows }) => rows[0]?.role === 'anon',
        (error: unknown) => {
          const translated = translateDriverError(error);
          // An outage says nothing about the pooler: ask again next time.
          if (translated instanceof DatabaseUnavailableError && !isStartupRefusal(error)) {
            this.anonPoolWorks = undefined;
            throw translated;
          }
          return false;
        },
      )
      .then((works) => {
        if (!works) void this.anonPool.end().catch(() => {});
        return works;
      });
    return this.anonPoolWorks;
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw translateDriverError(error);
    }
    // A connection lost mid-transaction also fails the pending query; without a
    // listener the client's 'error' event would crash the process.
    const ignore = () => {};
    client.on('error', ignore);
    const tx = queryable(client);
    let discard = false;
    try {
      await tx.query('begin');
      const value = await work(tx);
      await tx.query('commit');
      return value;
    } catch (error) {
      try {
        await client.query('rollback');
      } catch {
        discard = true;
      }
      throw error;
    } finally {
      client.off('error', ignore);
      // A connection that could not roll back is discarded rather than reused.
      client.release(discard);
    }
  }

  async close() {
    await Promise.all([this.pool.end(), this.anonPool.ended ? undefined : this.anonPool.end()]);
  }
}

/** Queries on the pool, or on one of its connections, with the driver's errors translated. */
function queryable(runner: pg.Pool | pg.PoolClient): Queryable {
  const query = async <Row>(sql: string, params: readonly unknown[] = []) => {
    try {
      const result = await runner.query(sql, [...params]);
      return { rows: result.rows as Row[] };
    } catch (error) {
      throw translateDriverError(error);
    }
  };
  return {
    query,
    exec: async (sql: string) => {
      // Without parameters, pg uses the simple protocol, which accepts several statements.
      await query(sql);
    },
  };
}

/** The server and database names of a connection string, without credentials. */
function describe(connectionString: string): string {
  try {
    // Up to the last @ is credentials, even where a password's own / or @ was
    // not written %-encoded and would be read as the host's or the path's.
    const url = new URL(connectionString.replace(/^([a-z]+:\/\/)[^]*@/i, '$1'));
    return `PostgreSQL at ${url.host}${url.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

/** The server or a pooler refused the connection's startup parameters (here: the role). */
function isStartupRefusal(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /startup parameter|role "anon" does not exist|permission denied to set role/i.test(
    message,
  );
}
