import type { Database, Queryable } from '../../supabase/functions/_shared/db/database.ts';
import {
  appliedMigrations,
  findMigrationsDir,
  hasTable,
  listMigrations,
  migrate,
  unknownMigrations,
} from './migrate.ts';

/**
 * A backup: the rows of the project's tables as JSON, with the names of the
 * migrations that had made their schema. The schema itself is not in it: it
 * comes from supabase/migrations, so a backup taken on PGlite loads into
 * PostgreSQL or Supabase and back, and into a later release, whose newer
 * migrations then run on the restored rows as they would at an upgrade.
 * Rows are loaded as one bound JSON parameter per table, into the known tables
 * and the columns they have: a backup file can never run SQL of its own.
 */

export const backupFormat = 'hijama-backup';
export const backupVersion = 1;

interface TableSpec {
  name: string;
  /** The order rows are written in, so that two backups of the same data compare equal. */
  order: string;
  /** One row of settings that the migrations create: a restore replaces it. */
  settings?: boolean;
}

/**
 * The tables a backup holds, in the order they are restored (bookings before
 * the notifications that reference them). Not kept: app_private.booking_clients
 * (visitors' addresses of the last hour, kept only to count them) and
 * app_private.schema_migrations (a restore applies the migrations itself).
 */
const tables = [
  { name: 'public.bookings', order: 'created_at, id' },
  { name: 'app_private.booking_notifications', order: 'booking_id' },
  { name: 'app_private.booking_alerts', order: 'id' },
  { name: 'app_private.booking_limits', order: 'singleton', settings: true },
] as const satisfies readonly TableSpec[];

export type BackupTable = (typeof tables)[number]['name'];

export const backupTables: readonly BackupTable[] = tables.map((table) => table.name);

export type BackupRow = Record<string, unknown>;

export interface Backup {
  format: typeof backupFormat;
  version: typeof backupVersion;
  /** The moment of the snapshot, by the database's clock (ISO 8601). */
  createdAt: string;
  /**
   * The migrations applied to the source, in order; null where none were
   * recorded (a Supabase project migrated with `supabase db push` only).
   */
  migrations: string[] | null;
  /** Each table's rows as PostgreSQL writes them in JSON; a table the source lacks is absent. */
  tables: Partial<Record<BackupTable, BackupRow[]>>;
}

/** A file that is not a backup this version can read; the message says why. */
export class BackupFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupFileError';
  }
}

/** A restore that would mix or lose data; nothing was changed. */
export class RestoreRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefusedError';
  }
}

/**
 * Every table of the backup read in one transaction: on PostgreSQL a
 * repeatable-read snapshot, so bookings arriving meanwhile are in it whole or
 * not at all; PGlite runs one transaction at a time anyway. Runs as the
 * connection's user, the tables' owner.
 */
export async function readBackup(db: Database): Promise<Backup> {
  return db.transaction(async (tx) => {
    await tx.query('set transaction isolation level repeatable read, read only');
    await tx.query(`set local time zone 'UTC'`);
    const { rows: clock } = await tx.query<{ now: string }>(
      `select to_json(now()) #>> '{}' as now`,
    );
    const content: Backup['tables'] = {};
    for (const table of tables) {
      if (!(await hasTable(tx, table.name))) continue;
      const { rows } = await tx.query<{ rows: string }>(
        `select coalesce(json_agg(t order by ${table.order}), '[]')::text as rows from ${table.name} t`,
      );
      content[table.name] = JSON.parse(rows[0]?.rows ?? '[]') as BackupRow[];
    }
    return {
      format: backupFormat,
      version: backupVersion,
      createdAt: new Date(clock[0]?.now ?? Date.now()).toISOString(),
      migrations: (await appliedMigrations(tx)) ?? null,
      tables: content,
    };
  });
}

/**
 * The file's text: JSON, one row per line, so that it reads and compares well
 * (`diff`, `grep`) and a damaged line is easy to find.
 */
export function formatBackup(backup: Backup): string {
  const tableLines = Object.entries(backup.tables).map(([name, rows]) => {
    const body = rows.map((row) => `      ${JSON.stringify(row)}`).join(',\n');
    return `    ${JSON.stringify(name)}: [${rows.length === 0 ? '' : `\n${body}\n    `}]`;
  });
  return [
    '{',
    `  "format": ${JSON.stringify(backup.format)},`,
    `  "version": ${JSON.stringify(backup.version)},`,
    `  "createdAt": ${JSON.stringify(backup.createdAt)},`,
    `  "migrations": ${JSON.stringify(backup.migrations)},`,
    `  "tables": {${tableLines.length === 0 ? '' : `\n${tableLines.join(',\n')}\n  `}}`,
    '}',
    '',
  ].join('\n');
}

const migrationName = /^\d{14}_[A-Za-z0-9_-]+\.sql$/;

/** Reads a backup file's text, checking its shape. */
export function parseBackup(text: string): Backup {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BackupFileError('is not a backup of this project (it is not JSON).');
  }
  const backup = value as Partial<Backup> | null;
  if (typeof backup !== 'object' || backup === null || backup.format !== backupFormat) {
    throw new BackupFileError('is not a backup made by `hijama backup`.');
  }
  if (backup.version !== backupVersion) {
    throw new BackupFileError(
      `was written in backup format ${String(backup.version)}, which this version does not know: restore it with the version that made it, or a later one.`,
    );
  }
  const migrations = backup.migrations;
  if (
    migrations !== null &&
    !(
      Array.isArray(migrations) &&
      migrations.every((name) => typeof name === 'string' && migrationName.test(name))
    )
  ) {
    throw new BackupFileError('is damaged: its list of migrations is not readable.');
  }
  if (typeof backup.createdAt !== 'string' || Number.isNaN(Date.parse(backup.createdAt))) {
    throw new BackupFileError('is damaged: it does not say when it was made.');
  }
  const content = backup.tables;
  if (typeof content !== 'object' || content === null || Array.isArray(content)) {
    throw new BackupFileError('is damaged: it holds no tables.');
  }
  for (const [name, rows] of Object.entries(content)) {
    if (!backupTables.includes(name as BackupTable)) {
      throw new BackupFileError(`holds a table this version does not know (${name}).`);
    }
    const isRow = (row: unknown) => typeof row === 'object' && row !== null && !Array.isArray(row);
    if (!Array.isArray(rows) || !rows.every(isRow)) {
      throw new BackupFileError(`is damaged: the rows of ${name} are not readable.`);
    }
  }
  if (!content['public.bookings']) {
    throw new BackupFileError('holds no bookings table.');
  }
  return backup as Backup;
}

/** How many rows of each table a restore loaded. */
export type RestoreReport = Partial<Record<BackupTable, number>>;

/**
 * Loads a backup into an empty database: applies the migrations the backup was
 * made with, loads the rows as they were (triggers and checks held off, so a
 * row is neither changed, re-notified nor refused by a rule newer than it), then
 * applies the remaining migrations. A backup that names no migrations (a
 * Supabase project migrated with `supabase db push` only), or those of a build
 * before release 1.0.0 (replaced by the 1.0.0 baseline), is loaded into the
 * whole schema, into the columns it has. Refuses, changing nothing, a database
 * that already holds bookings, notifications or alerts, and a backup made with
 * migrations of a newer version.
 */
export async function restoreBackup(
  db: Database,
  backup: Backup,
  migrationsDir: string = findMigrationsDir(),
): Promise<RestoreReport> {
  const { older, newer } = unknownMigrations(
    backup.migrations ?? [],
    await listMigrations(migrationsDir),
  );
  const unknown = newer[0];
  if (unknown) {
    throw new RestoreRefusedError(
      `The backup was made by a newer version of this project: its migration ${unknown} is not in ${migrationsDir}. ` +
        'Update this copy (git pull, npm ci, npm run build), then restore again.',
    );
  }
  await refuseUnlessEmpty(db);
  const last = older.length > 0 ? undefined : backup.migrations?.at(-1);
  await migrate(db, migrationsDir, last ? { through: last } : {});
  const report = await db.transaction(async (tx) => {
    const loaded: RestoreReport = {};
    for (const table of tables) {
      const rows = backup.tables[table.name];
      if (rows) loaded[table.name] = await loadTable(tx, table, rows);
    }
    return loaded;
  });
  await migrate(db, migrationsDir);
  return report;
}

async function refuseUnlessEmpty(db: Database) {
  const held: string[] = [];
  for (const table of tables) {
    if ('settings' in table || !(await hasTable(db, table.name))) continue;
    const { rows } = await db.query<{ count: number }>(
      `select count(*)::integer as count from ${table.name}`,
    );
    const count = rows[0]?.count ?? 0;
    if (count > 0) held.push(`${count} row${count === 1 ? '' : 's'} in ${table.name}`);
  }
  if (held.length > 0) {
    throw new RestoreRefusedError(
      `${db.description} is not empty (${held.join(', ')}): a backup is restored only into an empty database, so that nothing is mixed or overwritten. ` +
        'Restore into a new DATA_DIR folder, or a new PostgreSQL or Supabase database.',
    );
  }
}

interface Column {
  name: string;
  /** `a`: generated always as identity, `d`: by default, empty: not an identity. */
  identity: string;
}

async function loadTable(tx: Queryable, table: TableSpec, rows: BackupRow[]): Promise<number> {
  const { rows: columns } = await tx.query<Column>(
    `select attname as name, attidentity as identity from pg_attribute
     where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = ''
     order by attnum`,
    [table.name],
  );
  const inBackup = new Set(rows.flatMap((row) => Object.keys(row)));
  const loaded = columns.filter((column) => inBackup.has(column.name));
  const { rows: checks } = await tx.query<{ name: string; definition: string }>(
    `select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
     where conrelid = $1::regclass and contype = 'c' order by conname`,
    [table.name],
  );

  await tx.query(`alter table ${table.name} disable trigger user`);
  for (const check of checks) {
    await tx.query(`alter table ${table.name} drop constraint ${quoteIdentifier(check.name)}`);
  }
  if (table.settings) await tx.query(`delete from ${table.name}`);
  if (rows.length > 0 && loaded.length > 0) {
    const list = loaded.map((column) => quoteIdentifier(column.name)).join(', ');
    const overriding = loaded.some((column) => column.identity === 'a')
      ? ' overriding system value'
      : '';
    await tx.query(
      `insert into ${table.name} (${list})${overriding}
       select ${list} from json_populate_recordset(null::${table.name}, $1::json)`,
      [JSON.stringify(rows)],
    );
  }
  // Put back as they were, `not valid` included: rows older than a rule stay as stored.
  for (const check of checks) {
    await tx.query(
      `alter table ${table.name} add constraint ${quoteIdentifier(check.name)} ${check.definition}`,
    );
  }
  await tx.query(`alter table ${table.name} enable trigger user`);
  for (const column of columns.filter((candidate) => candidate.identity !== '')) {
    const name = quoteIdentifier(column.name);
    await tx.query(
      `select setval(pg_get_serial_sequence($1, $2), coalesce(max(${name}), 0) + 1, false) from ${table.name}`,
      [table.name, column.name],
    );
  }
  return rows.length;
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
