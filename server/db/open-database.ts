import path from 'node:path';
import { setBookingLimits, type BookingLimits } from './booking-limits.ts';
import { DatabaseError, type Database } from '../../supabase/functions/_shared/db/database.ts';
import { lockDataDir, type LockHolder } from './data-dir-lock.ts';
import { migrate, type MigrationReport } from './migrate.ts';
import { openPglite, type PgliteDatabase } from './pglite.ts';
import { commandSocketPath, socketPathFits, type SharedSocket } from './pglite-socket.ts';
import { openPostgres } from '../../supabase/functions/_shared/db/postgres.ts';
import { makeContentsPrivate, unusableDataDir } from './private-data-dir.ts';

export interface OpenedDatabase {
  db: Database;
  migrations: MigrationReport;
  /** Closes the database, then releases the data-directory lock. */
  close(): Promise<void>;
  /**
   * Shares the embedded database with `npx hijama` on a socket in the data
   * directory (pglite-socket.ts) until closed; false when the directory's
   * path is too long for a socket. PostgreSQL needs no sharing: true.
   */
  shareWithCommands(): Promise<boolean>;
}

export class DatabaseRoleError extends Error {
  constructor(user: string) {
    super(
      `The database user "${user}" cannot switch to the role anon, which the server uses so that ` +
        `row-level security applies to every visitor's request. As a superuser, run: grant anon to "${user}";`,
    );
    this.name = 'DatabaseRoleError';
  }
}

/**
 * PostgreSQL when a connection string is given, otherwise PGlite in
 * `<dataDir>/pgdata` under the data-directory lock; migrated either way, then
 * given the booking limits when they are passed (each one unset goes back to
 * its default; the bookings command passes none and changes nothing).
 * `migrate: false` opens it as it is, for a restore, which migrates in steps.
 */
export async function openDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
  bookingLimits?: Partial<BookingLimits>;
  migrate?: boolean;
  /** What the data directory's lock says holds it: the server, or an `npx hijama` command. */
  lockHolder?: LockHolder;
}): Promise<OpenedDatabase> {
  if (options.databaseUrl) {
    const db = await openPostgres(options.databaseUrl);
    try {
      const migrations = await prepare(db, options);
      return { db, migrations, close: () => db.close(), shareWithCommands: async () => true };
    } catch (error) {
      await db.close().catch(() => {});
      throw error;
    }
  }

  const lock = lockDataDir(options.dataDir, options.lockHolder);
  let db: PgliteDatabase | undefined;
  let socket: SharedSocket | undefined;
  try {
    db = await openPglite(path.join(options.dataDir, 'pgdata'));
    // PGlite's files are open to all (private-data-dir.ts): closed at open and at close.
    makeContentsPrivate(options.dataDir);
    const migrations = await prepare(db, options);
    const opened = db;
    return {
      db: opened,
      migrations,
      async shareWithCommands() {
        const socketPath = commandSocketPath(options.dataDir);
        if (!socketPathFits(socketPath)) return false;
        socket = await opened.shareOnSocket(socketPath);
        return true;
      },
      close: async () => {
        try {
          await socket?.close();
          await opened.close();
          makeContentsPrivate(options.dataDir);
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    await db?.close().catch(() => {});
    lock.release();
    // PGlite's file-system error carries a number alone (Emscripten's ErrnoError): 51, a full disk.
    const cause = (error as Error).cause as { name?: string; errno?: number } | undefined;
    if (cause?.name === 'ErrnoError' && cause.errno === 51) {
      throw unusableDataDir(options.dataDir, { code: 'ENOSPC' });
    }
    throw error;
  }
}

/** Migrates `db`, checks the API's roles on PostgreSQL and sets the booking limits; nothing with `migrate: false`. */
async function prepare(
  db: Database,
  options: { bookingLimits?: Partial<BookingLimits>; migrate?: boolean },
): Promise<MigrationReport> {
  if (options.migrate === false) return { applied: [], changed: [] };
  const migrations = await migrate(db);
  if (db.engine === 'postgres') await checkApiRoles(db);
  if (options.bookingLimits) {
    await setBookingLimits(db, options.bookingLimits, { unsetToDefault: true });
  }
  return migrations;
}

/** A server user that is neither superuser nor member of anon would fail every visitor's request. */
export async function checkApiRoles(db: Database) {
  try {
    await db.transaction(async (tx) => {
      await tx.query('set local role anon');
    });
  } catch (error) {
    // 42501: not a member; 22023: the role does not exist.
    if (error instanceof DatabaseError && (error.code === '42501' || error.code === '22023')) {
      const { rows } = await db.query<{ user: string }>('select session_user as "user"');
      throw new DatabaseRoleError(rows[0]?.user ?? 'of DATABASE_URL');
    }
    throw error;
  }
}
