import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Mutex, PGlite, type Transaction } from '@electric-sql/pglite';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import {
  queryAsAnonInTransaction,
  translateDriverError,
  type Database,
  type Queryable,
} from '../../supabase/functions/_shared/db/database.ts';
import { shareOnSocket, type SharedSocket } from './pglite-socket.ts';

/**
 * PostgreSQL's page cache inside PGlite. The default, 128 MB (the
 * postgresql.conf PGlite writes), took over 100 MB of the idle server's
 * memory (about 330 MB, 210 MB with 16 MB). A practice's tables fit in 16 MB
 * many times over, and pages beyond it come from the operating system's file
 * cache. Given as a start parameter: the data directory's files stay as they are.
 */
const sharedBuffers = '16MB';

/**
 * Opens (creating on first use) an embedded PostgreSQL in `dataDir`.
 * PGlite does not stop a second process from opening the same directory:
 * the caller must hold the data-directory lock (data-dir-lock.ts) first.
 */
export async function openPglite(dataDir: string): Promise<PgliteDatabase> {
  let pglite: PGlite;
  try {
    pglite = await PGlite.create({
      dataDir,
      // The proof of work is checked with pgcrypto, as on Supabase.
      extensions: { pgcrypto },
      startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`],
    });
  } catch (error) {
    throw translateDriverError(error);
  }
  return new PgliteDatabase(pglite, dataDir);
}

export class PgliteDatabase implements Database {
  readonly engine = 'pglite';
  readonly description: string;
  /** Whose turn it is: this process's queries, or a connection of the socket (pglite-socket.ts). */
  private readonly turns = new Mutex();
  /** PGlite's own queries and statements, its errors translated. */
  private readonly direct: Queryable;

  constructor(
    private readonly pglite: PGlite,
    dataDir: string,
  ) {
    this.description = `PGlite in ${dataDir}`;
    this.direct = queryable(pglite);
  }

  /**
   * PGlite runs in this thread and hands its lock from one waiting query to the
   * next in microtasks, so a queue of them would run to the end without letting
   * the server read a single new request. Waiting for the event loop's next turn
   * first lets requests arrive meanwhile, and the server see how many are
   * pending and refuse the excess instead of leaving it unread in the sockets.
   */
  async query<Row>(sql: string, params: readonly unknown[] = []) {
    await yieldToEventLoop();
    return this.turns.runExclusive(() => this.direct.query<Row>(sql, params));
  }

  exec(sql: string) {
    return this.turns.runExclusive(() => this.direct.exec(sql));
  }

  /** Shares the database with `npx hijama` on a Unix socket until closed. */
  shareOnSocket(socketPath: string, options?: { maxHoldMs?: number }): Promise<SharedSocket> {
    return shareOnSocket(this.pglite, this.turns, socketPath, options);
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    await yieldToEventLoop();
    let workFailure: { error: unknown } | undefined;
    try {
      // PGlite commits when the callback resolves and rolls back when it throws.
      return await this.turns.runExclusive(() =>
        this.pglite.transaction(async (tx) => {
          try {
            return await work(queryable(tx));
          } catch (error) {
            workFailure = { error };
            throw error;
          }
        }),
      );
    } catch (error) {
      throw workFailure ? workFailure.error : translateDriverError(error);
    }
  }

  queryAsAnon(sql: string, params: readonly unknown[]) {
    return queryAsAnonInTransaction(this, sql, params);
  }

  async close() {
    // After the statement of a command's connection that may be running (pglite-socket.ts).
    await this.turns.runExclusive(async () => {
      if (!this.pglite.closed) await this.pglite.close();
    });
  }
}

/** The queries and statements of PGlite or of one of its transactions, its errors translated. */
function queryable(target: PGlite | Transaction): Queryable {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      try {
        return { rows: (await target.query<Row>(sql, [...params])).rows };
      } catch (error) {
        throw translateDriverError(error);
      }
    },
    async exec(sql: string) {
      try {
        await target.exec(sql);
      } catch (error) {
        throw translateDriverError(error);
      }
    },
  };
}
