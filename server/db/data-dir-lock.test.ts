import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTempDir } from '../testing/temp-dir.ts';
import { DataDirLockedError, lockDataDir, lockFileName } from './data-dir-lock.ts';

/** Set to an error code: this process's writes into its data folder fail so (a full disk). */
let writesFail: string | undefined;
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  const writeFileSync: typeof fs.writeFileSync = (...args) => {
    if (writesFail) throw Object.assign(new Error(writesFail), { code: writesFail });
    fs.writeFileSync(...args);
  };
  return { ...fs, default: { ...fs, writeFileSync }, writeFileSync };
});

const hasProc = existsSync('/proc/self/stat');
const lockModule = fileURLToPath(new URL('./data-dir-lock.ts', import.meta.url));

const lockedDir = useTempDir('lock');
const otherDir = useTempDir('lock-other');
let dataDir: string;
let lockPath: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  dataDir = lockedDir();
  lockPath = path.join(dataDir, lockFileName);
});

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** Another process holding the lock, as a second server would, or an `npx hijama` command. */
async function lockInChild(holder: 'server' | 'command' = 'server'): Promise<ChildProcess> {
  const script = path.join(dataDir, 'hold-lock.mjs');
  writeFileSync(
    script,
    `import { lockDataDir } from ${JSON.stringify(lockModule)};\n` +
      `lockDataDir(process.argv[2], process.argv[3]);\nconsole.log('locked');\nsetInterval(() => {}, 1000);\n`,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', script, dataDir, holder], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  expect(chunk.toString()).toContain('locked');
  return child;
}

function writeLock(owner: Record<string, unknown>) {
  writeFileSync(
    lockPath,
    JSON.stringify({ hostname: 'test', startedAt: '2026-01-01T00:00:00Z', ...owner }),
  );
}

/** The pid the lock file of `dir` names. */
const lockHolder = (dir: string) =>
  (JSON.parse(readFileSync(path.join(dir, lockFileName), 'utf8')) as { pid: number }).pid;

function pidOfEndedProcess(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid as number;
}

describe('lockDataDir', () => {
  it('takes the lock and releases it', () => {
    const lock = lockDataDir(dataDir);
    expect(lockHolder(dataDir)).toBe(process.pid);
    lock.release();
    expect(existsSync(lockPath)).toBe(false);
  });

  it('says what to do with a folder it cannot make, where a file stands in its path', () => {
    writeFileSync(path.join(dataDir, 'a-file'), '');
    const under = path.join(dataDir, 'a-file', 'data');
    expect(() => lockDataDir(under)).toThrow(
      `DATA_DIR: ${under} cannot be used: a file stands in its path. Set DATA_DIR to a folder, or move the file away.`,
    );
  });

  it('refuses a second lock on the same directory with a clear message', () => {
    const lock = lockDataDir(dataDir);
    try {
      expect(() => lockDataDir(dataDir)).toThrow(DataDirLockedError);
      expect(() => lockDataDir(dataDir)).toThrow(
        /is in use by another server .*Stop that server first, or set DATA_DIR/,
      );
    } finally {
      lock.release();
    }
  });

  it('refuses while another running process holds the lock, and takes it once that process is killed', async () => {
    const child = await lockInChild();
    expect(() => lockDataDir(dataDir)).toThrow(
      new RegExp(`in use by another server \\(process ${child.pid} `),
    );

    child.kill('SIGKILL');
    await once(child, 'exit');
    const lock = lockDataDir(dataDir);
    expect(lockHolder(dataDir)).toBe(process.pid);
    lock.release();
  });

  it.runIf(hasProc)(
    'says which process holds the lock, and never to delete the lock of a process seen running',
    async () => {
      const server = await lockInChild('server');
      const refusal = () => {
        try {
          lockDataDir(dataDir);
        } catch (error) {
          return (error as Error).message;
        }
        throw new Error('The lock was taken');
      };
      expect(refusal()).toMatch(
        new RegExp(
          `^The data directory .* is in use by another server \\(process ${server.pid} on .*hold-lock\\.mjs .*\\)\\. Stop that server first, or set DATA_DIR to another directory\\. ` +
            `Do not delete .*${lockFileName} while process ${server.pid} runs: two processes writing the database at once damage it\\.$`,
        ),
      );
      server.kill('SIGKILL');
      await once(server, 'exit');

      // A restore or a backup run while the server is stopped: no server to stop, and
      // deleting its lock would have the server write the database beside it.
      const command = await lockInChild('command');
      expect(refusal()).toMatch(
        new RegExp(
          `^The data directory .* is in use by an \`npx hijama\` command \\(process ${command.pid} on .*\\), such as a restore or a backup: wait for it to finish, then try again\\. Do not delete `,
        ),
      );
      expect(refusal()).not.toMatch(/If no such/);
    },
  );

  it("on a full disk, tells a running server's lock apart from a folder it cannot use", async () => {
    const server = await lockInChild();
    writesFail = 'ENOSPC';
    try {
      // A command then reads the database on the server's socket.
      expect(() => lockDataDir(dataDir, 'command')).toThrow(DataDirLockedError);
      server.kill('SIGKILL');
      await once(server, 'exit');
      expect(() => lockDataDir(dataDir, 'command')).toThrow(
        `DATA_DIR: ${dataDir} cannot be used: its disk is full.`,
      );
    } finally {
      writesFail = undefined;
    }
  });

  it('takes the lock of a copy of the folder made while its server runs, and leaves the original locked', async () => {
    const child = await lockInChild();
    const copy = otherDir();
    cpSync(dataDir, copy, { recursive: true });
    expect(lockHolder(copy)).toBe(child.pid);
    const lock = lockDataDir(copy);
    expect(lockHolder(copy)).toBe(process.pid);
    lock.release();
    expect(() => lockDataDir(dataDir)).toThrow(DataDirLockedError);
  });

  it('knows its folder through another path to it', async () => {
    const child = await lockInChild();
    const link = path.join(otherDir(), 'link');
    symlinkSync(dataDir, link);
    expect(() => lockDataDir(link)).toThrow(new RegExp(`process ${child.pid} `));
  });

  /** A process that lives while the test runs, whose pid a stale lock may name. */
  async function runningPid(): Promise<number> {
    const child = spawn('sleep', ['30']);
    children.push(child);
    await once(child, 'spawn');
    return child.pid!;
  }

  it.each([
    ['whose process no longer exists', () => writeLock({ pid: pidOfEndedProcess() })],
    ['left with a truncated file', () => writeFileSync(lockPath, '{"pid": 12')],
    ['naming this very process, which cannot be holding it', () => writeLock({ pid: process.pid })],
  ])('takes over a lock %s', (_what, leave) => {
    leave();
    lockDataDir(dataDir).release();
  });

  it.runIf(hasProc).each([
    [
      'whose pid now belongs to a different process',
      async () => ({
        pid: await runningPid(),
        startTime: '1',
        bootId: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
      }),
    ],
    [
      'written before the last reboot',
      async () => ({ pid: await runningPid(), bootId: 'a-previous-boot' }),
    ],
  ])('takes over a lock %s', async (_what, owner) => {
    writeLock(await owner());
    lockDataDir(dataDir).release();
  });

  it('does not remove a lock that another server has taken since', () => {
    const lock = lockDataDir(dataDir);
    writeLock({ pid: 1 });
    lock.release();
    expect(existsSync(lockPath)).toBe(true);
  });
});
