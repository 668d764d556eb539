import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import {
  BackupFileError,
  formatBackup,
  parseBackup,
  readBackup,
  restoreBackup,
  type Backup,
} from '../db/backup.ts';
import { DataDirLockedError } from '../db/data-dir-lock.ts';
import { createPrivateFile } from '../db/private-data-dir.ts';
import { appliedMigrations, supabasePushState } from '../db/migrate.ts';
import { openDatabase } from '../db/open-database.ts';
import type { Settings } from '../settings.ts';
import { formatUkTimeLong } from '../../supabase/functions/_shared/uk-time.ts';
import { isAlertKind } from '../../supabase/functions/_shared/notifications/message-queue.ts';
import { plural } from '../../supabase/functions/_shared/notifications/message-lists.ts';
import { CliError, withDatabase } from './bookings-source.ts';
import type { CliIo } from './cli-io.ts';

/**
 * `hijama backup FILE` and `hijama restore FILE`: the file format and the
 * loading are server/db/backup.ts; here, where the data comes from and goes.
 */

export async function backup(io: CliIo, settings: Settings, file: string): Promise<number> {
  const target = path.resolve(io.cwd, file);
  if (existsSync(target)) {
    throw new CliError(
      `${file} exists already, and a backup never overwrites a file: give another name, e.g. with the date (hijama-$(date +%F).json).`,
    );
  }
  // Made readable by its owner alone, as the files it will hold.
  try {
    mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new CliError(
      code === 'EEXIST' || code === 'ENOTDIR'
        ? `${file} cannot be written: ${path.dirname(file)} is not a folder (it, or a folder above it, is a file). Give a path in a folder, e.g. backups/hijama-$(date +%F).json.`
        : `Could not make the folder ${path.dirname(file)}: ${message}`,
    );
  }
  // As it is: a backup is how a database this version refuses to migrate moves on.
  const { snapshot, description } = await withDatabase(
    settings.server,
    async ({ db, description }) => ({ snapshot: await readBackup(db), description }),
    { migrate: false },
  );
  const text = formatBackup(snapshot);
  writeNewFile(target, file, text);
  await io.out(
    `Backed up ${describeContent(snapshot)} from ${description} to ${file} (${formatSize(Buffer.byteLength(text))}).\n`,
  );
  return 0;
}

export async function restore(io: CliIo, settings: Settings, file: string): Promise<number> {
  let text: string;
  try {
    text = readFileSync(path.resolve(io.cwd, file), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EISDIR') {
      throw new CliError(
        `${file} is a folder, not a backup made by \`hijama backup\`: a copy of the data folder is put back as a folder, with the server stopped (docs/deploy.md, "Upgrade"), not with this command.`,
      );
    }
    throw new CliError(`Could not read ${file}: ${(error as Error).message}`);
  }
  let snapshot: Backup;
  try {
    snapshot = parseBackup(text);
  } catch (error) {
    throw namingFile(file, error);
  }

  const { databaseUrl, dataDir } = settings.server;
  const opened = await openDatabase({
    databaseUrl,
    dataDir,
    migrate: false,
    lockHolder: 'command',
  }).catch((error: unknown) => {
    // Another command's lock says, as it stands, to wait for that command.
    if (!(error instanceof DataDirLockedError) || error.owner.holder === 'command') throw error;
    throw new CliError(
      `A server is running on ${dataDir}. Restore into a new folder instead (set DATA_DIR to it), then start the server on that folder.`,
    );
  });
  let pushed: boolean;
  let answered: number;
  try {
    pushed = (await supabasePushState(opened.db, await appliedMigrations(opened.db))) === 'made';
    await restoreBackup(opened.db, snapshot, {
      release100: {
        remindBeforeReplyByMs: settings.notify?.remindBeforeReplyByMs,
        dailyAt: settings.daily.at,
      },
    });
    // Counted as restored: a backup of release 1.0.0 holds no answers, and the
    // restore takes those older than the reply window as answered.
    const { rows } = await opened.db.query<{ count: number }>(
      'select count(*)::integer as count from app_private.booking_answers',
    );
    answered = rows[0]!.count;
  } catch (error) {
    throw namingFile(file, error);
  } finally {
    await opened.close();
  }
  const next = pushed
    ? 'Its schema was made by `supabase db push`: the notify-bookings function sends its notifications (docs/deploy.md), not the server.'
    : databaseUrl
      ? 'Start the server with this DATABASE_URL.'
      : `Start the server with DATA_DIR=${dataDir}.`;
  await io.out(
    `Restored ${describeContent(snapshot, answered)} from ${file} (taken ${formatUkTimeLong(new Date(snapshot.createdAt))}) into ${opened.db.description}. ${next}\n`,
  );
  return 0;
}

/** A BackupFileError's message goes on from the name of the file, which only this side knows. */
function namingFile(file: string, error: unknown): unknown {
  return error instanceof BackupFileError ? new BackupFileError(`${file} ${error.message}`) : error;
}

/**
 * "12 booking requests (9 answered), 12 notifications (1 not yet sent), 0 alerts and 6 other tables";
 * after a restore, the answered as the restored database counts them.
 */
function describeContent(snapshot: Backup, answeredAfterRestore?: number): string {
  // Each table read here is described; the others are counted.
  const described = new Set<string>();
  const rows = (table: string) => {
    described.add(table);
    return snapshot.tables[table] ?? [];
  };
  // A backup made before the one queue holds its notifications and alerts in tables of their own.
  const notifications = [
    ...rows('app_private.booking_notifications').map((row) => ({ done_at: row.completed_at })),
    ...rows('app_private.messages').filter((row) => row.kind === 'notification'),
  ];
  const pending = notifications.filter((row) => row.done_at === null).length;
  const answersInFile = rows('app_private.booking_answers').length;
  const answered = answeredAfterRestore ?? answersInFile;
  const alerts = [
    ...rows('app_private.booking_alerts'),
    ...rows('app_private.messages').filter((row) => isAlertKind(row.kind)),
  ];
  const bookings = rows('public.bookings').length;
  const others = Object.keys(snapshot.tables).filter((name) => !described.has(name)).length;
  return [
    `${plural(bookings, 'booking request')} (${answered} answered)`,
    `${plural(notifications.length, 'notification')}${pending > 0 ? ` (${pending} not yet sent)` : ''}`,
    `${plural(alerts.length, 'alert')} and ${plural(others, 'other table')}`,
  ].join(', ');
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * The file appears whole or not at all, readable by its owner alone (it holds
 * personal data), and one that appeared meanwhile is not overwritten
 * (createPrivateFile); then its folder is flushed, so that its name lasts.
 */
function writeNewFile(target: string, file: string, text: string) {
  let created: boolean;
  try {
    created = createPrivateFile(target, text);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    // A folder this user may not write: cron's, a shell function's working folder.
    const user = userInfo().username;
    const advice = ['EACCES', 'EPERM', 'EROFS'].includes(code ?? '')
      ? `give a path in a folder the user ${user} may write (e.g. made with install -d -m 700 -o ${user} FOLDER)`
      : 'mend what the error names, then back up again';
    throw new CliError(`Could not write ${file}: ${message}. Nothing was written: ${advice}.`);
  }
  if (!created) {
    throw new CliError(`${target} appeared while the backup was written; it was left as it is.`);
  }
  const dir = openSync(path.dirname(target), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}
