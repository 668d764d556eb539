import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  linkSync,
  lstatSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { ConfigError } from '../../supabase/functions/_shared/config.ts';

/**
 * The embedded database's folder holds every booking request (names, phone
 * numbers, e-mail addresses, in its tables and in pg_wal/), so only the user
 * that runs the server may enter it. A folder closed to everyone else closes
 * everything inside it, whatever the files' own permissions: the folder alone
 * is checked. The files are made private too, as a second lock, at open and
 * at close (open-database.ts): PGlite sets most of its files' permissions
 * itself, to 0666, whatever the process's umask.
 */

/** The data directory's permissions when the server or the command creates it. */
export const privateDirMode = 0o700;

/** Permissions of the group and of other users. */
const groupAndOtherBits = 0o077;

export class DataDirNotPrivateError extends Error {
  constructor(dataDir: string, mode: number) {
    const quoted = shellQuote(dataDir);
    super(
      `The data directory ${dataDir} is open to other users of this machine (permissions ${formatMode(mode)}), ` +
        'and it holds the booking requests: names, phone numbers and e-mail addresses. ' +
        'Make it private to the user that runs the server, then start the server again:\n' +
        `  chmod 700 ${quoted}\n` +
        `  chmod -R go-rwx ${quoted}`,
    );
    this.name = 'DataDirNotPrivateError';
  }
}

/**
 * The exit status of a set-up the server refuses as it is: a data directory
 * another user's, open to others, or out of reach, or a database it must not
 * migrate (migrate.ts). EX_CONFIG of sysexits.h. The systemd unit does not
 * restart on it (RestartPreventExitStatus=), since only a person can fix it.
 */
export const refusedSetupExitStatus = 78;

export class DataDirOwnerError extends Error {
  constructor(dataDir: string, ownerUid: number) {
    const user = userInfo().username;
    super(
      `The data directory ${dataDir} belongs to another user (uid ${ownerUid}), not to ${user}, who runs this: ` +
        'its database could not be written, or would be left unreadable to its owner. ' +
        // Most often the folder is the service's, and this was run as root by mistake:
        // handing it to root would stop the service at its next start.
        `Run this as the folder's owner (on a server set up as docs/deploy.md says, with its hijama command, which runs as the service's user). ` +
        `Only if the folder is meant to be ${user}'s, give it to ${user}, then start again:\n` +
        `  chown -R ${shellQuote(user)} ${shellQuote(dataDir)}`,
    );
    this.name = 'DataDirOwnerError';
  }
}

/** A data folder this user cannot reach or make, or where a file stands: only a person can fix it. */
export class DataDirUnusableError extends ConfigError {}

/**
 * A data folder this user cannot reach or make (or where a file stands), said
 * with what to do; any other error as it is.
 */
export function unusableDataDir(dataDir: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const user = userInfo().username;
  const inTheWay = 'a file stands in its path. Set DATA_DIR to a folder, or move the file away.';
  const why: Record<string, string> = {
    ENOTDIR: inTheWay,
    EEXIST: inTheWay,
    EROFS: 'its file system is read-only. Set DATA_DIR to a folder on a writable disk.',
    ENOSPC:
      'its disk is full. Free space on it (or move DATA_DIR to a larger disk), then try again.',
    EACCES: `${user}, who runs this, may not reach or make it. Run this as the user the folder is for, or set DATA_DIR to a folder ${user} may write.`,
  };
  const reason = why[code === 'EPERM' ? 'EACCES' : code];
  return reason
    ? new DataDirUnusableError([`DATA_DIR: ${dataDir} cannot be used: ${reason}`])
    : error;
}

/** A folder's or file's status, or undefined when it is not made yet (a data folder is then created private) or on Windows. */
function statIfPresent(target: string): Stats | undefined {
  if (process.platform === 'win32') return undefined;
  try {
    return statSync(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Throws DataDirOwnerError if `dataDir` is another user's, DataDirUnusableError
 * if it is a file. Judged by owner,
 * not by trying: root may write anywhere, and would leave files its server,
 * run later as the folder's owner, cannot read.
 */
export function checkDataDirOwner(dataDir: string): void {
  let stat: Stats | undefined;
  try {
    stat = statIfPresent(dataDir);
  } catch (error) {
    throw unusableDataDir(dataDir, error);
  }
  // A file where the folder should be: no chmod or chown makes it one.
  if (stat && !stat.isDirectory()) {
    throw unusableDataDir(dataDir, Object.assign(new Error('not a folder'), { code: 'ENOTDIR' }));
  }
  const uid = process.getuid?.();
  if (stat && uid !== undefined && stat.uid !== uid) throw new DataDirOwnerError(dataDir, stat.uid);
}

/** The permissions of a folder or file when its group or other users have any, else undefined. */
export function openMode(target: string): number | undefined {
  const mode = (statIfPresent(target)?.mode ?? 0) & 0o7777;
  return (mode & groupAndOtherBits) === 0 ? undefined : mode;
}

/**
 * Throws DataDirOwnerError if `dataDir` is another user's, DataDirNotPrivateError
 * if it grants anything to its group or to other users; a folder not made yet is
 * fine (it is created private). Windows has no such permissions to check.
 */
export function checkDataDirIsPrivate(dataDir: string): void {
  checkDataDirOwner(dataDir);
  const mode = openMode(dataDir);
  if (mode !== undefined) throw new DataDirNotPrivateError(dataDir, mode);
}

/**
 * Takes every permission of the group and of other users off all that `dir`
 * holds (the folder itself is checked, not changed: checkDataDirIsPrivate).
 * An entry that vanishes meanwhile, or that belongs to another user (chmod is
 * refused), is left as it is: the folder's own permissions still close it.
 */
export function makeContentsPrivate(dir: string): void {
  if (process.platform === 'win32') return;
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const entry = path.join(dir, name);
    try {
      const stat = lstatSync(entry);
      // A symbolic link has no permissions of its own on Linux.
      if (stat.isSymbolicLink() || (stat.mode & groupAndOtherBits) === 0) continue;
      chmodSync(entry, stat.mode & 0o7777 & ~groupAndOtherBits);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'EPERM') throw error;
    }
  }
}

/**
 * Writes `content` to a new file readable by its owner alone, aside first,
 * flushed, then hard-linked into place: the file appears whole or not at all.
 * False, writing nothing, when `target` exists already: it is never replaced.
 */
export function createPrivateFile(target: string, content: string): boolean {
  const draft = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(draft, content, { flag: 'wx', mode: 0o600, flush: true });
    linkSync(draft, target);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}

export function formatMode(mode: number): string {
  return mode.toString(8).padStart(4, '0');
}

/** A word (a path, an argument) as the shell would need it typed, quoted only when it needs to be. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
