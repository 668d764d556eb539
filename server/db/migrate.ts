import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database, Queryable } from '../../supabase/functions/_shared/db/database.ts';

/**
 * Applies supabase/migrations/*.sql in name order, each once, each in its own
 * transaction, and records them in a schema that the REST API never exposes.
 * An advisory lock makes two servers starting at once on one PostgreSQL
 * database take turns instead of racing.
 */

export interface MigrationReport {
  /** Files applied by this run. */
  applied: string[];
  /** Files applied earlier whose content has changed since; they are not re-run. */
  changed: string[];
}

export class MigrationError extends Error {
  constructor(file: string, cause: unknown) {
    super(`Migration ${file} failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'MigrationError';
  }
}

// Any constant works; it only has to be the same for every server of this project.
const migrationLockKey = '4737151020251122';

export async function migrate(
  db: Database,
  migrationsDir: string = findMigrationsDir(),
  options: {
    /** Applies the files up to this one only (a restore loads a backup's rows there). */
    through?: string;
  } = {},
): Promise<MigrationReport> {
  const { through } = options;
  const files = (await listMigrations(migrationsDir)).filter(
    (name) => through === undefined || name <= through,
  );
  await db.transaction(async (tx) => {
    await takeMigrationLock(tx);
    await tx.exec(`
      create schema if not exists app_private;
      comment on schema app_private is 'Server bookkeeping; never exposed through the REST API.';
      create table if not exists app_private.schema_migrations (
        name text primary key,
        checksum text not null,
        applied_at timestamptz not null default now()
      );
    `);
  });

  const report: MigrationReport = { applied: [], changed: [] };
  for (const file of files) {
    const sql = await readFile(path.join(migrationsDir, file), 'utf8');
    const checksum = createHash('sha256').update(sql).digest('hex');
    try {
      await db.transaction(async (tx) => {
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
      throw new MigrationError(file, error);
    }
  }
  return report;
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

/** supabase/migrations of this project, found from this file in the sources and in dist-server alike. */
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
