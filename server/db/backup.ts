import {
  DatabaseError,
  type Database,
  type Queryable,
} from '../../supabase/functions/_shared/db/database.ts';
import {
  dailyRunDue,
  defaultDailyTime,
} from '../../supabase/functions/_shared/notifications/daily-schedule.ts';
import { replyWithinMs } from '../../supabase/functions/_shared/notifications/booking-notice.ts';
import { defaultRemindBeforeReplyByMs } from '../../supabase/functions/_shared/notifications/notify-config.ts';
import { remindAfterMs } from '../../supabase/functions/_shared/notifications/reminders.ts';
import type { UkClockTime } from '../../supabase/functions/_shared/uk-time.ts';
import {
  appliedMigrations,
  findMigrationsDir,
  hasTable,
  supabasePushState,
  listMigrations,
  migrate,
  unknownMigrations,
} from './migrate.ts';

/**
 * A backup: the whole state of the database as rows in JSON, with the names of
 * the migrations that had made its schema. The schema itself is not in it: it
 * comes from supabase/migrations, so a backup taken on PGlite loads into
 * PostgreSQL or Supabase and back, and into a later release, whose newer
 * migrations then run on the restored rows as they would at an upgrade.
 *
 * Whole by construction: the tables are read from the catalog, every table of
 * `public` and `app_private` but those of `tablesLeftOut`, each left out for a
 * reason given there. A table a later migration adds is in the next backup
 * without a change here.
 *
 * Rows are loaded as one bound JSON parameter per table, into the tables the
 * catalog has and the columns they have: a backup file can never run SQL of
 * its own.
 */

const backupFormat = 'hijama-backup';
/** 2: the whole state; 1: release 1.0.0's four tables (`settleRelease100Backup`). */
const backupVersion = 2;
const release100Version = 1;

const backedUpSchemas = ['public', 'app_private'];

/** The tables of `public` and `app_private` that a backup leaves out, and why. */
export const tablesLeftOut: Readonly<Record<string, string>> = {
  'app_private.schema_migrations':
    'the restore applies the migrations itself, up to those the backup names',
  'app_private.booking_clients':
    "the visitors' networks and address digests of the last hour, kept only to count them against the limits",
  'app_private.booking_proofs_used':
    'the proofs of work already accepted, kept only until they expire minutes later',
  'app_private.booking_proof_key':
    'signs proof-of-work challenges that live for minutes: a restored database signs with a key of its own, so no proof accepted before is accepted again',
};

/**
 * The tables of earlier releases whose rows a migration moved into the one
 * queue, app_private.messages, each moved by the migration's function named
 * after it, `messages_from_<table>` (20261203000000_one_message_queue.sql). A backup holding one is
 * restored through that function where the schema no longer has the table (a
 * schema made whole: by `supabase db push`, or for a backup that names no
 * migration of this project); elsewhere the table is loaded as it was, and the
 * migration applied after the load moves its rows.
 */
const legacyQueueTables = [
  'booking_alerts',
  'daily_runs',
  'booking_reminders',
  'booking_acknowledgements',
  'booking_notifications',
  'flood_digests',
].map((table) => ({
  name: `app_private.${table}`,
  move: `app_private.messages_from_${table}`,
}));

export type BackupRow = Record<string, unknown>;

export interface Backup {
  format: typeof backupFormat;
  version: typeof backupVersion | typeof release100Version;
  /** The moment of the snapshot, by the database's clock (ISO 8601). */
  createdAt: string;
  /**
   * The migrations applied to the source, in order; null where none were
   * recorded (a Supabase project migrated with `supabase db push` only).
   */
  migrations: string[] | null;
  /**
   * The value each sequence of the tables (an identity column's) hands out
   * next, by the `schema.table.column` it numbers: a restore continues there,
   * so that an id of a row deleted before the backup is not handed out again
   * (an alert's id is its e-mail's Message-ID and its webhook's
   * Idempotency-Key, which receivers drop as repeats). Absent from files
   * written before it was recorded: their restore continues after the largest id.
   */
  sequences?: Record<string, number>;
  /** Each table's rows as PostgreSQL writes them in JSON, by `schema.table`. */
  tables: Record<string, BackupRow[]>;
}

/** A file that is not a backup this version can read; the message says why. */
export class BackupFileError extends Error {
  name = 'BackupFileError';
}

/** A restore that would mix or lose data; nothing was changed. */
export class RestoreRefusedError extends Error {
  name = 'RestoreRefusedError';
}

interface TableSpec {
  /** `schema.table`, as the catalog names it. */
  name: string;
  /** The primary key's columns: the order rows are written in, so that two backups of the same data compare equal. */
  key: string[];
  /** The tables its foreign keys reference, restored before it. */
  references: string[];
  /** Its columns that a sequence numbers (identity or serial), each with that sequence. */
  identities: { column: string; sequence: string }[];
}

/**
 * One row of settings or keys that the migrations create (its primary key is
 * `singleton`): a restore replaces it rather than refusing a database that has it.
 */
const isSettingsRow = (table: TableSpec) => table.key.join() === 'singleton';

/**
 * What the server or the Edge Function writes on a database that holds no
 * request yet: the queue's messages about no request (the day's run, an
 * alert). A restore replaces them too, rather than refusing the database that
 * the service was started on before it (a new machine's install does that).
 */
const bookkeeping = { table: 'app_private.messages', rows: 'booking_id is null' };

/** The tables a backup holds, read from the catalog, each after those it references. */
export async function backedUpTables(db: Queryable): Promise<TableSpec[]> {
  const { rows } = await db.query<TableSpec>(
    `select n.nspname || '.' || c.relname as name,
       coalesce((select array_agg(a.attname::text order by k.position)
         from pg_index i
         cross join unnest(i.indkey::int2[]) with ordinality as k(attnum, position)
         join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
         where i.indrelid = c.oid and i.indisprimary), '{}') as key,
       coalesce((select array_agg(distinct rn.nspname || '.' || rc.relname)
         from pg_constraint f
         join pg_class rc on rc.oid = f.confrelid
         join pg_namespace rn on rn.oid = rc.relnamespace
         where f.conrelid = c.oid and f.contype = 'f' and f.confrelid <> c.oid), '{}') as references,
       coalesce((select json_agg(json_build_object('column', s.name, 'sequence', s.sequence)
           order by s.attnum)
         from (select a.attnum, a.attname as name,
                      pg_get_serial_sequence(c.oid::regclass::text, a.attname) as sequence
                 from pg_attribute a
                where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) s
         where s.sequence is not null), '[]') as identities
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = any($1) and c.relkind in ('r', 'p') and not c.relispartition
     order by 1`,
    [backedUpSchemas],
  );
  const tables = rows.filter((table) => !(table.name in tablesLeftOut));
  const ordered: TableSpec[] = [];
  const visit = (table: TableSpec) => {
    if (ordered.includes(table)) return;
    for (const name of table.references) {
      const referenced = tables.find((candidate) => candidate.name === name);
      if (referenced && referenced !== table) visit(referenced);
    }
    ordered.push(table);
  };
  tables.forEach(visit);
  return ordered;
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
    const sequences: Record<string, number> = {};
    for (const table of await backedUpTables(tx)) {
      const order = table.key.length > 0 ? table.key.map(quoteIdentifier).join(', ') : 't::text';
      const { rows } = await tx.query<{ rows: string }>(
        `select coalesce(json_agg(t order by ${order}), '[]')::text as rows from ${table.name} t`,
      );
      content[table.name] = JSON.parse(rows[0]?.rows ?? '[]') as BackupRow[];
      // Read outside the snapshot (sequences are not transactional), so never
      // behind an id in it; an id handed out meanwhile is only skipped.
      for (const { column, sequence } of table.identities) {
        const { rows: next } = await tx.query<{ next: string }>(
          `select (case when is_called then last_value + seqincrement else last_value end)::text as next
             from ${sequence}, pg_sequence where seqrelid = $1::regclass`,
          [sequence],
        );
        sequences[`${table.name}.${column}`] = Number(next[0]?.next);
      }
    }
    // The key the answer links in sent e-mails were signed with: on hosted
    // Supabase it is Vault's (20261201000200_notifications.sql), not the table's.
    const linkKey = content['app_private.answer_link_key']?.[0];
    if (linkKey) {
      const { rows } = await tx.query<{ key: string }>(
        `select to_json(app_private.answer_link_key()) #>> '{}' as key`,
      );
      linkKey.hmac_key = rows[0]?.key;
    }
    return {
      format: backupFormat,
      version: backupVersion,
      createdAt: new Date(clock[0]?.now ?? Date.now()).toISOString(),
      migrations: (await appliedMigrations(tx)) ?? null,
      sequences,
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
    ...(backup.sequences ? [`  "sequences": ${JSON.stringify(backup.sequences)},`] : []),
    `  "tables": {${tableLines.length === 0 ? '' : `\n${tableLines.join(',\n')}\n  `}}`,
    '}',
    '',
  ].join('\n');
}

const migrationName = /^\d{14}_[A-Za-z0-9_-]+\.sql$/;
const tableName = /^(public|app_private)\.[a-z_][a-z0-9_]*$/;
const columnName = /^(public|app_private)\.[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$/;

/** A JSON object: not null, not an array. */
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Why a backup file's text is not JSON, and what to do: the copy kept off the
 * machine is compressed or encrypted (docs/deploy.md says to encrypt it), so
 * it must be undone first, not given up for damaged.
 */
function notJsonReason(text: string): string {
  const start = text.slice(0, 40);
  const undoFirst = (what: string, how: string) =>
    `${what}: ${how}, then restore the file that gives.`;
  // The dump docs/deploy.md has a deployer take before an upgrade: whole, but not ours to load.
  if (start.startsWith('PGDMP') || /^--\r?\n-- PostgreSQL database dump/.test(start)) {
    return 'is a dump made by pg_dump, not a backup made by `hijama backup`: it is loaded with pg_restore (or psql, for a dump in SQL) into a new, empty PostgreSQL database (docs/deploy.md, "Upgrade"), not with this command.';
  }
  if (start.startsWith('\u001f\uFFFD')) {
    return undoFirst('is compressed with gzip', 'decompress it first (`gunzip -k FILE`)');
  }
  if (/^(age-encryption\.org\/|-----BEGIN AGE ENCRYPTED FILE-----)/.test(start)) {
    return undoFirst(
      'is encrypted with age',
      'decrypt it first (`age -d -i KEY_FILE -o backup.json FILE`)',
    );
  }
  if (start.startsWith('-----BEGIN PGP MESSAGE-----')) {
    return undoFirst('is encrypted with gpg', 'decrypt it first (`gpg -o backup.json -d FILE`)');
  }
  if (start.includes('\uFFFD')) {
    return undoFirst(
      'is not text: most likely compressed or encrypted (a gpg file, a zip)',
      'decompress or decrypt it first',
    );
  }
  return 'is not JSON: it was cut short or damaged (or is not a backup at all). Restore an earlier backup, or copy this one again from where it is kept.';
}

/** Reads a backup file's text, checking its shape. */
export function parseBackup(text: string): Backup {
  let value: unknown;
  try {
    // A byte order mark, as some editors and Windows tools write: not part of the JSON.
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new BackupFileError(notJsonReason(text));
  }
  const backup = value as Partial<Backup>;
  if (!isRecord(backup) || backup.format !== backupFormat) {
    throw new BackupFileError('is not a backup made by `hijama backup`.');
  }
  if (backup.version !== backupVersion && backup.version !== release100Version) {
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
  const sequences: unknown = backup.sequences;
  if (
    sequences !== undefined &&
    !(
      isRecord(sequences) &&
      Object.entries(sequences).every(
        ([name, next]) => columnName.test(name) && Number.isSafeInteger(next),
      )
    )
  ) {
    throw new BackupFileError('is damaged: the next ids of its tables are not readable.');
  }
  const content = backup.tables;
  if (!isRecord(content)) {
    throw new BackupFileError('is damaged: it holds no tables.');
  }
  for (const [name, rows] of Object.entries(content)) {
    if (!tableName.test(name) || name in tablesLeftOut) {
      throw new BackupFileError(`holds a table this version does not know (${name}).`);
    }
    if (!Array.isArray(rows) || !rows.every(isRecord)) {
      throw new BackupFileError(`is damaged: the rows of ${name} are not readable.`);
    }
  }
  if (!content['public.bookings']) {
    throw new BackupFileError('holds no bookings table.');
  }
  return backup as Backup;
}

/** How many rows of each table a restore loaded. */
type RestoreReport = Record<string, number>;

/** What the restore of a 1.0.0 backup needs to know of the notifier's settings. */
interface Release100Settings {
  /** NOTIFY_REMINDER_HOURS, in milliseconds; its default when unset (no channel configured). */
  remindBeforeReplyByMs?: number | undefined;
  /** NOTIFY_DAILY_SUMMARY_AT; its default when unset. */
  dailyAt?: UkClockTime | undefined;
}

/**
 * Loads a backup into an empty database: applies the migrations the backup was
 * made with, loads the rows as they were (triggers and checks held off, so a
 * row is neither changed, re-notified nor refused by a rule newer than it), then
 * applies the remaining migrations. The restored database is the same state:
 * what was answered, sent, reminded or acknowledged stays so, and the answer
 * links already sent still work. A backup that names no migrations (a Supabase
 * project migrated with `supabase db push` only), or those of a build before
 * release 1.0.0 (replaced by the 1.0.0 baseline), is loaded into the whole
 * schema, into the columns it has (the others take their defaults); so is any
 * backup restored into a Supabase project where `supabase db push` has made the schema.
 *
 * Refuses, changing nothing, a database that already holds rows other than the
 * settings its migrations made and the service's own `bookkeeping`, a backup made with migrations of a newer version,
 * one holding a table or column the schema lacks, and one lacking a table of its own schema.
 */
export async function restoreBackup(
  db: Database,
  backup: Backup,
  options: { migrationsDir?: string; release100?: Release100Settings } = {},
): Promise<RestoreReport> {
  const migrationsDir = options.migrationsDir ?? findMigrationsDir();
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
  const applied = await appliedMigrations(db);
  // The schema made by `supabase db push`, which records its migrations elsewhere.
  const push = await supabasePushState(db, applied);
  const pushed = push === 'made';
  if (push === 'awaited') {
    throw new RestoreRefusedError(
      'This is the database of a Supabase project whose tables `supabase db push` has not made yet: run it first (docs/deploy.md, "To PostgreSQL or Supabase, and back"), then restore again. Nothing was changed.',
    );
  }
  const last = older.length > 0 ? undefined : backup.migrations?.at(-1);
  // One transaction, the migrations' included: a restore stopped or refused
  // half-way leaves the database as it was, to be restored again, rather than
  // holding rows that the later migrations or the settling of a 1.0.0 backup
  // have not yet brought up to date (a server started on it would send again).
  return db.transaction(async (tx) => {
    if (!pushed) await migrate(db, migrationsDir, { through: last, within: tx });
    const tables = await backedUpTables(tx);
    const inSchema = (name: string) => tables.some((table) => table.name === name);
    const unknownTable = Object.keys(backup.tables).find(
      (name) => !inSchema(name) && !legacyQueueTables.some((legacy) => legacy.name === name),
    );
    if (unknownTable) {
      throw new RestoreRefusedError(
        `The backup holds a table that this version's schema does not have (${unknownTable}): restore it with the version that made it.`,
      );
    }
    // Made here up to the backup's migrations, or made by them before (a service
    // started on it first), the schema is the one the backup was read from, which
    // wrote every table, empty or not (a database already migrated further has
    // tables a backup of an earlier release never had).
    const missingTable =
      backup.version === backupVersion &&
      last &&
      (applied ?? []).every((name) => name <= last) &&
      !pushed
        ? tables.find((table) => !(table.name in backup.tables))
        : undefined;
    if (missingTable) {
      throw new BackupFileError(
        `is damaged: it lacks the table ${missingTable.name} that its schema had, so nothing was restored; restore an earlier backup.`,
      );
    }
    if (inSchema(bookkeeping.table)) {
      await tx.query(`delete from ${bookkeeping.table} where ${bookkeeping.rows}`);
    }
    const loaded: RestoreReport = {};
    for (const table of tables) {
      const rows =
        older.length > 0 && table.name === 'app_private.booking_answers'
          ? backup.tables[table.name]?.map(markedAsRestored)
          : backup.tables[table.name];
      if (rows) {
        loaded[table.name] = await loadTable(tx, table, rows, backup.sequences).catch(
          refusedRows(table.name),
        );
      }
    }
    for (const { name, move } of legacyQueueTables) {
      const rows = backup.tables[name];
      if (rows && !inSchema(name)) {
        loaded[name] = await loadIntoQueue(tx, move, rows).catch(refusedRows(name));
      }
    }
    if (backup.tables['app_private.answer_link_key'] && (await hasTable(tx, 'vault.secrets'))) {
      // Where Vault holds the key (hosted Supabase), it takes the restored one.
      await tx.query(
        `select vault.update_secret(s.id, encode(k.hmac_key, 'hex'))
           from vault.secrets s, app_private.answer_link_key k
          where s.name = 'hijama_answer_link_key'`,
      );
    }
    if (!pushed) await migrate(db, migrationsDir, { within: tx });
    if (backup.version === release100Version) {
      await settleRelease100Backup(tx, new Date(backup.createdAt), options.release100);
    }
    return loaded;
  });
}

/**
 * Before release 1.0.0, the migration that brought answers took the requests
 * older than the reply window as answered, marked `migration`: the mark that
 * a restore gives such requests now (20261202000000_restored_marks.sql).
 */
function markedAsRestored(row: Record<string, unknown>): Record<string, unknown> {
  return row.marked_by === 'migration' ? { ...row, marked_by: 'restore' } : row;
}

/**
 * A value of the file the database refuses (SQLSTATE classes 22, data, and 23,
 * integrity: a malformed uuid, a missing field, a row twice, a row of a
 * request the file lacks): the file is damaged. Said with the database's short
 * message only, as its detail ("Failing row contains …") prints the row's
 * personal data. The transaction is rolled back: nothing is loaded.
 */
const refusedRows = (table: string) => (error: unknown) => {
  if (!(error instanceof DatabaseError && /^2[23]/.test(error.code))) throw error;
  throw new BackupFileError(
    `is damaged: the database refused its rows of ${table} (${error.message}), so nothing was restored; restore an earlier backup.`,
  );
};

async function refuseUnlessEmpty(db: Database) {
  const held: string[] = [];
  for (const table of await backedUpTables(db)) {
    if (isSettingsRow(table)) continue;
    const others = table.name === bookkeeping.table ? ` where not (${bookkeeping.rows})` : '';
    const { rows } = await db.query<{ count: number }>(
      `select count(*)::integer as count from ${table.name}${others}`,
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

/**
 * A backup written by release 1.0.0 held the requests, their notifications,
 * the alerts and the limits, but not what the practice had done about each.
 * Recorded here as of the backup's time, so that the restored database chases
 * nothing older than the reply window and sends nothing again: a request older
 * than the reply window is taken as answered (`restore`); one whose reminder
 * was due is taken as reminded; every request is taken as acknowledged
 * (`restored`); the day's run is taken as done if it was due.
 * (20261202000000_restored_marks.sql; the reminders and acknowledgements are
 * messages of the queue, 20261203000000_one_message_queue.sql.)
 */
async function settleRelease100Backup(
  tx: Queryable,
  takenAt: Date,
  {
    remindBeforeReplyByMs = defaultRemindBeforeReplyByMs,
    dailyAt = defaultDailyTime,
  }: Release100Settings = {},
) {
  const at = takenAt.toISOString();
  const olderThan = (ms: number) => new Date(takenAt.getTime() - ms).toISOString();
  await tx.query(
    `insert into app_private.booking_answers (booking_id, answered_at, marked_by)
       select id, $1, 'restore' from public.bookings where created_at <= $2
     on conflict (booking_id) do nothing`,
    [at, olderThan(replyWithinMs)],
  );
  await tx.query(
    `insert into app_private.messages (kind, booking_id, done_at, outcome)
       select 'reminder', id, $1, 'restored' from public.bookings where created_at <= $2
     on conflict (kind, booking_id) where booking_id is not null do nothing`,
    [at, olderThan(remindAfterMs(remindBeforeReplyByMs))],
  );
  await tx.query(
    `insert into app_private.messages (kind, booking_id, address_key, done_at, outcome)
       select 'acknowledgement', id,
              app_private.mailbox_key(email),
              $1, 'restored'
         from public.bookings where email is not null and created_at <= $1
     on conflict (kind, booking_id) where booking_id is not null do nothing`,
    [at],
  );
  const day = dailyRunDue(takenAt, dailyAt);
  if (day) {
    await tx.query(
      `insert into app_private.messages (kind, day, done_at, outcome) values ('daily_run', $1, $2, 'done')
       on conflict (day) where kind = 'daily_run' do nothing`,
      [day, at],
    );
  }
}

async function loadTable(
  tx: Queryable,
  table: TableSpec,
  rows: BackupRow[],
  sequences: Backup['sequences'] = {},
): Promise<number> {
  // identity: `a`, generated always as identity; `d`, by default; empty, not an identity.
  // generated: `s`, computed from the others, so written in a backup but never loaded.
  const { rows: columns } = await tx.query<{ name: string; identity: string; generated: string }>(
    `select attname as name, attidentity as identity, attgenerated as generated from pg_attribute
     where attrelid = $1::regclass and attnum > 0 and not attisdropped order by attnum`,
    [table.name],
  );
  const inBackup = new Set(rows.flatMap((row) => Object.keys(row)));
  // A value with no column to hold it would be lost without a word. (No migration
  // has dropped a column: one that does must let older backups' values of it go here.)
  const unknownColumn = [...inBackup].find((name) => !columns.some((c) => c.name === name));
  if (unknownColumn) {
    throw new RestoreRefusedError(
      `The backup holds a column that this database's schema does not have (${table.name}.${unknownColumn}), so nothing was restored: ` +
        'restore it with the version that made it, into a database whose schema is up to date (on Supabase, `supabase db push` first).',
    );
  }
  const loaded = columns.filter((column) => column.generated === '' && inBackup.has(column.name));
  const { rows: checks } = await tx.query<{ name: string; definition: string }>(
    `select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
     where conrelid = $1::regclass and contype = 'c' order by conname`,
    [table.name],
  );

  await tx.query(`alter table ${table.name} disable trigger user`);
  for (const check of checks) {
    await tx.query(`alter table ${table.name} drop constraint ${quoteIdentifier(check.name)}`);
  }
  if (isSettingsRow(table)) await tx.query(`delete from ${table.name}`);
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
  // Where the source's sequence stood, never below an id loaded (greatest ignores a null).
  for (const { column, sequence } of table.identities) {
    await tx.query(
      `select setval($1, greatest(coalesce(max(${quoteIdentifier(column)}), 0) + 1, $2::bigint), false)
         from ${table.name}`,
      [sequence, sequences[`${table.name}.${column}`] ?? null],
    );
  }
  return rows.length;
}

/** Moves the rows of a table of an earlier release into the queue, as its migration did. */
async function loadIntoQueue(tx: Queryable, move: string, rows: BackupRow[]): Promise<number> {
  const queue = 'app_private.messages';
  // Restored as they were: a flood alert restored does not call the Edge Function.
  await tx.query(`alter table ${queue} disable trigger user`);
  await tx.query(`select ${move}($1::jsonb)`, [JSON.stringify(rows)]);
  await tx.query(`alter table ${queue} enable trigger user`);
  return rows.length;
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
