import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DatabaseError,
  type Database,
  type Queryable,
} from '../../supabase/functions/_shared/db/database.ts';

/**
 * Applies supabase/migrations/*.sql in name order, each once, each in its own
 * transaction (or all in the caller's: `within`), and records them in a schema
 * that the REST API never exposes.
 * An advisory lock makes two servers starting at once on one PostgreSQL
 * database take turns instead of racing.
 *
 * From release 1.0.0 on the files are append-only: a change to the schema is a
 * new file, sorting after every other (docs/development.md). A database that
 * records migrations this directory lacks is refused before anything is
 * applied: one made before 1.0.0, whose migrations the 1.0.0 baseline
 * replaced, or one made by a newer version.
 */

export interface MigrationReport {
  /** Files applied by this run. */
  applied: string[];
  /** Files applied earlier whose content has changed since; they are not re-run. */
  changed: string[];
}

/** A migration that failed, or a database this version must not migrate; the message says what to do. */
export class MigrationError extends Error {
  name = 'MigrationError';
}

/** A database this version must not migrate: only a person can change that, not a restart. */
export class MigrationRefusedError extends MigrationError {
  override name = 'MigrationRefusedError';
}

/** PostgreSQL's insufficient_privilege. */
const isNotPermitted = (error: unknown) => error instanceof DatabaseError && error.code === '42501';

/**
 * A migration, or the record of them, that failed: refused where the database
 * user lacks a right (not the owner of the database, or denied a role), which
 * only a person can grant, and a restart every few seconds would not.
 */
function migrationFailed(what: string, error: unknown): MigrationError {
  const said = `${what} failed: ${error instanceof Error ? error.message : String(error)}`;
  if (isNotPermitted(error)) {
    return new MigrationRefusedError(
      `${said}. DATABASE_URL's user lacks a right the server needs: it must own its database (${ownershipRemedy()}), and act as anon (docs/configuration.md, DATABASE_URL).`,
      { cause: error },
    );
  }
  return new MigrationError(said, { cause: error });
}

/** How DATABASE_URL's user comes to own its database, for the server's refusal and `npx hijama check`. */
export function ownershipRemedy(user = '<user>', name = '<name>'): string {
  return `as a superuser: alter database ${name} owner to ${user}, or create it with createdb -O ${user} ${name}`;
}

// Any constant works; it only has to be the same for every server of this project.
const migrationLockKey = '4737151020251122';

export async function migrate(
  db: Database,
  migrationsDir: string = findMigrationsDir(),
  options: {
    /** Applies the files up to this one only (a restore loads a backup's rows there). */
    through?: string;
    /**
     * A transaction of `db` to apply them all in, rather than each in its own:
     * a restore's, so that it is all done or not at all.
     */
    within?: Queryable;
  } = {},
): Promise<MigrationReport> {
  const { through, within } = options;
  const step = <T>(work: (tx: Queryable) => Promise<T>) =>
    within ? work(within) : db.transaction(work);
  const known = await listMigrations(migrationsDir);
  const files = known.filter((name) => through === undefined || name <= through);
  try {
    await step(async (tx) => {
      await takeMigrationLock(tx);
      const recorded = await appliedMigrations(tx);
      // Refused before the record is made, so that a restore still finds the schema pushed.
      const push = await supabasePushState(tx, recorded);
      if (push === 'made') {
        throw new MigrationRefusedError(
          `The tables of ${db.description} were made by \`supabase db push\`, which keeps its own record of migrations, so the server would apply them all again: it does not start on it. Nothing was changed. ` +
            'On hosted Supabase, the notify-bookings function sends the notifications and no server runs (docs/deploy.md); to run the server, give it an empty database of its own, which it sets up itself (`npx hijama restore FILE` loads a backup into it).',
        );
      }
      if (push === 'awaited') {
        throw new MigrationRefusedError(awaitingPushRefusal(db.description));
      }
      await tx.exec(`
        create schema if not exists app_private;
        create table if not exists app_private.schema_migrations (
          name text primary key,
          checksum text not null,
          applied_at timestamptz not null default now()
        );
      `);
      refuseUnknownMigrations(db.description, recorded ?? [], known, migrationsDir);
    });
  } catch (error) {
    // A right missing shows here first; anything else goes as it came.
    throw isNotPermitted(error) ? migrationFailed('Recording the migrations', error) : error;
  }

  const report: MigrationReport = { applied: [], changed: [] };
  for (const file of files) {
    const sql = await readFile(path.join(migrationsDir, file), 'utf8');
    const checksum = createHash('sha256').update(sql).digest('hex');
    try {
      await step(async (tx) => {
        await takeMigrationLock(tx);
        const { rows } = await tx.query<{ checksum: string }>(
          'select checksum from app_private.schema_migrations where name = $1',
          [file],
        );
        const recorded = rows[0];
        if (recorded) {
          if (recorded.checksum !== checksum) report.changed.push(file);
          return;
        }
        await tx.exec(sql);
        await tx.query(
          'insert into app_private.schema_migrations (name, checksum) values ($1, $2)',
          [file, checksum],
        );
        report.applied.push(file);
      });
    } catch (error) {
      throw migrationFailed(`Migration ${file}`, error);
    }
  }
  return report;
}

/**
 * The recorded migrations that `known` (a directory's files) lacks: `older`,
 * those sorting before its first file, were made by a build before release
 * 1.0.0, whose migrations the 1.0.0 baseline replaced; `newer`, the others,
 * by a newer version.
 */
export function unknownMigrations(
  recorded: readonly string[],
  known: readonly string[],
): { older: string[]; newer: string[] } {
  const unknown = recorded.filter((name) => !known.includes(name));
  const first = known[0];
  const isOlder = (name: string) => first !== undefined && name < first;
  return { older: unknown.filter(isOlder), newer: unknown.filter((name) => !isOlder(name)) };
}

function refuseUnknownMigrations(
  database: string,
  recorded: readonly string[],
  known: readonly string[],
  migrationsDir: string,
) {
  const { older, newer } = unknownMigrations(recorded, known);
  if (older.length > 0) {
    throw new MigrationRefusedError(
      `${database} was made by a build from before release 1.0.0: it records ${older.length} migration${older.length === 1 ? '' : 's'} ` +
        `(${older[0]}${older.length > 1 ? ` to ${older.at(-1)}` : ''}) that 1.0.0 replaced with a new baseline, so it cannot be upgraded in place. Nothing was changed. ` +
        'Back it up with `npx hijama backup FILE` (this version reads it), then start from an empty database (a new DATA_DIR folder, or a new PostgreSQL or Supabase database) ' +
        'and load the rows into it with `npx hijama restore FILE`.',
    );
  }
  if (newer.length > 0) {
    throw new MigrationRefusedError(
      `${database} was made by a newer version of this project: its migration ${newer[0]} is not in ${migrationsDir}. Nothing was changed. ` +
        'Update this copy (git pull, npm ci, npm run build), then start again.',
    );
  }
}

/** The migration files of `migrationsDir`, in the order they apply. */
export async function listMigrations(
  migrationsDir: string = findMigrationsDir(),
): Promise<string[]> {
  return (await readdir(migrationsDir)).filter((name) => name.endsWith('.sql')).sort();
}

/** The migrations recorded as applied, in order; undefined when none were ever recorded here. */
export async function appliedMigrations(db: Queryable): Promise<string[] | undefined> {
  if (!(await hasTable(db, 'app_private.schema_migrations'))) return undefined;
  const { rows } = await db.query<{ name: string }>(
    'select name from app_private.schema_migrations order by name',
  );
  return rows.map((row) => row.name);
}

/**
 * What `supabase db push` has to do with the schema, given `recorded`, this
 * project's record of its migrations (appliedMigrations):
 * - `made`: the push made it (hosted Supabase). It records the migrations it
 *   applied in a table of its own: the tables are there, and this project's
 *   record is not (or is empty).
 * - `awaited`: a Supabase project's database (it has Vault) whose tables the
 *   push has not made yet. Made by this project's migrations, they would be
 *   unknown to the push, whose next run would fail on every one.
 * - undefined: neither; the schema is this project's to make or has been.
 */
export async function supabasePushState(
  db: Queryable,
  recorded: readonly string[] | undefined,
): Promise<'made' | 'awaited' | undefined> {
  if ((recorded ?? []).length > 0) return undefined;
  if (await hasTable(db, 'public.bookings')) return 'made';
  if (recorded !== undefined) return undefined;
  const { rows } = await db.query<{ found: boolean }>(
    `select to_regnamespace('vault') is not null as found`,
  );
  return rows[0]?.found === true ? 'awaited' : undefined;
}

/** Why the server does not make its tables in a database that awaits `supabase db push`, for its start and `npx hijama check`. */
export function awaitingPushRefusal(database: string): string {
  return `${database} is the database of a Supabase project whose tables \`supabase db push\` has not made yet: made here, they would make its next push fail on every one. Nothing was changed. Run \`supabase db push\` (docs/deploy.md); on hosted Supabase the notify-bookings function sends the notifications and no server runs.`;
}

/** Whether a table exists, e.g. `public.bookings` (its migration has been applied). */
export async function hasTable(db: Queryable, table: string): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(
    'select to_regclass($1) is not null as found',
    [table],
  );
  return rows[0]?.found === true;
}

async function takeMigrationLock(tx: Queryable) {
  await tx.query('select pg_advisory_xact_lock($1)', [migrationLockKey]);
}

/**
 * supabase/migrations, found from this file: the checkout's from the sources,
 * the copy the build carries from dist-server (scripts/lib/copy-migrations.mjs),
 * so that a build older than the checkout never applies migrations newer than itself.
 */
export function findMigrationsDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'supabase', 'migrations');
    if (existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Could not find the supabase/migrations directory.');
    dir = parent;
  }
}
