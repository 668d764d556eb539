import { randomBytes } from 'node:crypto';
import {
  linkSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { createPrivateFile, privateDirMode, unusableDataDir } from './private-data-dir.ts';

/**
 * One server per data directory. PGlite itself lets a second process open the
 * same files (its postmaster.pid holds a placeholder pid and is ignored), and
 * two writers would corrupt them, so the server takes this lock first.
 *
 * The lock is a file naming its owner: pid, plus on Linux the kernel's boot id
 * and the process start time. A lock whose owner is gone (SIGKILL, crash, power
 * loss, a recycled pid after a container restart, a zombie nobody reaps) is
 * stale and taken over, so a crash never blocks the next start. The file appears atomically with its full
 * content (written aside, flushed, then hard-linked into place), so a half
 * written lock cannot be mistaken for a stale one.
 *
 * The lock also names the directory it was taken in (its device and inode), so
 * a copy of the folder, taken while its server runs (a backup of the files, a
 * `cp -a`), carries a lock that is recognised as stale: the copy is another
 * directory, which no server holds.
 *
 * Where /proc is missing (macOS), the owner is judged by its pid alone.
 * A data directory must not be shared by servers on different machines or in
 * different containers at the same time: their pids cannot be checked.
 */

export const lockFileName = 'server.lock';

interface LockOwner {
  pid: number;
  /** Clock ticks since boot at which the process started (Linux), telling a recycled pid apart. */
  startTime?: string;
  /** Changes at every boot (Linux), so a lock surviving a power loss is recognised as stale. */
  bootId?: string;
  hostname: string;
  startedAt: string;
  /** `<device>:<inode>` of the data directory the lock was taken in. */
  directory?: string;
  /** What took it: a server, or an `npx hijama` command (absent from the locks of earlier versions, all servers'). */
  holder?: LockHolder;
  /** The owner's command line, read from /proc when the lock is refused; never written. */
  commandLine?: string;
}

/** What holds a data directory: a server, or an `npx hijama` command that opened the database itself. */
export type LockHolder = 'server' | 'command';

export class DataDirLockedError extends Error {
  constructor(
    dataDir: string,
    lockPath: string,
    readonly owner: LockOwner,
  ) {
    const holding = `process ${owner.pid} on ${owner.hostname}${owner.commandLine ? `, ${owner.commandLine}` : ''}, started ${owner.startedAt}`;
    // Seen running on this machine, start time and all: its lock is not stale, and
    // deleting it would let a second process write the database's files at once.
    const seenRunning =
      owner.hostname === hostname() &&
      owner.startTime !== undefined &&
      owner.commandLine !== undefined;
    const deleting = seenRunning
      ? `Do not delete ${lockPath} while process ${owner.pid} runs: two processes writing the database at once damage it.`
      : `If no such ${owner.holder === 'command' ? 'command' : 'server'} is running, delete ${lockPath}.`;
    super(
      owner.holder === 'command'
        ? `The data directory ${dataDir} is in use by an \`npx hijama\` command (${holding}), such as a restore or a backup: wait for it to finish, then try again. ${deleting}`
        : `The data directory ${dataDir} is in use by another server (${holding}). ` +
            `Stop that server first, or set DATA_DIR to another directory. ${deleting}`,
    );
    this.name = 'DataDirLockedError';
  }
}

const heldByThisProcess = new Set<string>();

export function lockDataDir(dataDir: string, holder: LockHolder = 'server') {
  // Private from the start (private-data-dir.ts): the database's files are created in it next.
  try {
    mkdirSync(dataDir, { recursive: true, mode: privateDirMode });
  } catch (error) {
    throw unusableDataDir(dataDir, error);
  }
  const lockPath = path.join(realpathSync(dataDir), lockFileName);
  const me: LockOwner = { ...describeThisProcess(), directory: identifyDirectory(dataDir), holder };
  if (heldByThisProcess.has(lockPath)) {
    // As its file says: this process took it, perhaps as the other kind of holder.
    const held = parseOwner(readIfExists(lockPath) ?? '');
    throw new DataDirLockedError(dataDir, lockPath, held ?? me);
  }
  const content = `${JSON.stringify(me)}\n`;
  const refuseIfRunning = (found: string | undefined) => {
    const owner = parseOwner(found ?? '');
    if (owner && isRunning(owner, me)) {
      throw new DataDirLockedError(dataDir, lockPath, {
        ...owner,
        commandLine: commandLineOf(owner),
      });
    }
  };

  for (let attempt = 0; attempt < 5; attempt++) {
    let created: boolean;
    try {
      created = createPrivateFile(lockPath, content);
    } catch (error) {
      // A full or read-only disk: a running server's lock still sends a command to its socket.
      refuseIfRunning(readIfExists(lockPath));
      throw unusableDataDir(dataDir, error);
    }
    if (created) {
      heldByThisProcess.add(lockPath);
      // Removes the lock if this process still holds it; safe to call more than once.
      return { release: () => release(lockPath, content) };
    }
    const found = readIfExists(lockPath);
    if (found === undefined) continue; // released meanwhile
    refuseIfRunning(found);
    setStaleLockAside(lockPath, found);
  }
  throw new Error(`Could not take the lock ${lockPath}: other servers keep starting; try again.`);
}

/**
 * Moves a stale lock out of the way. If another server replaced it between our
 * read and the move, its fresh lock is put back and the next attempt sees it.
 */
function setStaleLockAside(lockPath: string, staleContent: string) {
  const aside = `${lockPath}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    renameSync(lockPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (readIfExists(aside) !== staleContent) {
    try {
      linkSync(aside, lockPath);
    } catch {
      // Yet another server holds the lock now; the next attempt will see it.
    }
  }
  unlinkSync(aside);
}

function release(lockPath: string, content: string) {
  if (!heldByThisProcess.delete(lockPath)) return;
  try {
    if (readIfExists(lockPath) === content) unlinkSync(lockPath);
  } catch {
    // Leaving the file behind is harmless: the next start sees its owner is gone.
  }
}

function isRunning(owner: LockOwner, me: LockOwner): boolean {
  // Taken in another directory: this folder is a copy of that one.
  if (owner.directory && me.directory && owner.directory !== me.directory) return false;
  // This process does not hold the lock (checked above), so an earlier process had our pid.
  if (owner.pid === me.pid) return false;
  if (owner.bootId && me.bootId && owner.bootId !== me.bootId) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const status = readProcessStatus(owner.pid);
  // A killed process stays a zombie until its parent reaps it, which some supervisors never do.
  if (status?.state === 'Z' || status?.state === 'X') return false;
  if (owner.startTime && status?.startTime && owner.startTime !== status.startTime) return false;
  return true;
}

function describeThisProcess(): LockOwner {
  const startTime = readProcessStatus(process.pid)?.startTime;
  const bootId = readProcFile('/proc/sys/kernel/random/boot_id')?.trim();
  return {
    pid: process.pid,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
    ...(startTime && { startTime }),
    ...(bootId && { bootId }),
  };
}

/** The running owner's command line, from /proc (Linux), when it is the process that took the lock. */
function commandLineOf(owner: LockOwner): string | undefined {
  if (owner.hostname !== hostname() || owner.startTime === undefined) return undefined;
  if (readProcessStatus(owner.pid)?.startTime !== owner.startTime) return undefined;
  const words = readProcFile(`/proc/${owner.pid}/cmdline`)?.split('\0').filter(Boolean);
  return words && words.length > 0 ? words.join(' ').slice(0, 200) : undefined;
}

/** From /proc/<pid>/stat (Linux); undefined elsewhere or once the process is gone. */
function readProcessStatus(pid: number) {
  const stat = readProcFile(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  // Field 2, the command name in parentheses, may contain spaces; state is field 3, start time field 22.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0], startTime: fields[19] };
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    // Whatever JSON it holds, only an object with a positive pid names an owner.
    const owner = JSON.parse(text) as Partial<LockOwner> | null;
    if (!owner || !Number.isSafeInteger(owner.pid) || owner.pid! <= 0) return undefined;
    return {
      pid: owner.pid!,
      startTime: typeof owner.startTime === 'string' ? owner.startTime : undefined,
      bootId: typeof owner.bootId === 'string' ? owner.bootId : undefined,
      hostname: typeof owner.hostname === 'string' ? owner.hostname : 'an unknown host',
      startedAt: typeof owner.startedAt === 'string' ? owner.startedAt : 'at an unknown time',
      directory: typeof owner.directory === 'string' ? owner.directory : undefined,
      holder: owner.holder === 'command' ? 'command' : 'server',
    };
  } catch {
    return undefined;
  }
}

/** The directory's identity on this machine: the same through any path or link, new for a copy. */
function identifyDirectory(dir: string): string {
  const { dev, ino } = statSync(dir, { bigint: true });
  return `${dev}:${ino}`;
}

function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Linux process information; missing on other systems and for ended processes. */
function readProcFile(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
