import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir, lockFileName } from './data-dir-lock.ts';

const hasProc = existsSync('/proc/self/stat');
const lockModule = fileURLToPath(new URL('./data-dir-lock.ts', import.meta.url));

let dataDir: string;
let lockPath: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'hijama-lock-'));
  lockPath = path.join(dataDir, lockFileName);
});

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** Another process holding the lock, as a second server would. */
async function lockInChild(): Promise<ChildProcess> {
  const script = path.join(dataDir, 'hold-lock.mjs');
  writeFileSync(
    script,
    `import { lockDataDir } from ${JSON.stringify(lockModule)};\n` +
      `lockDataDir(process.argv[2]);\nconsole.log('locked');\nsetInterval(() => {}, 1000);\n`,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', script, dataDir], {
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

function pidOfEndedProcess(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid as number;
}

describe('lockDataDir', () => {
  it('takes the lock and releases it', () => {
    const lock = lockDataDir(dataDir);
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
    expect(existsSync(lockPath)).toBe(false);
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
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
  });

  it('takes the lock of a copy of the folder made while its server runs, and leaves the original locked', async () => {
    const child = await lockInChild();
    const copy = mkdtempSync(path.join(tmpdir(), 'hijama-lock-copy-'));
    try {
      cpSync(dataDir, copy, { recursive: true });
      expect(JSON.parse(readFileSync(path.join(copy, lockFileName), 'utf8'))).toMatchObject({
        pid: child.pid,
      });
      const lock = lockDataDir(copy);
      expect(JSON.parse(readFileSync(path.join(copy, lockFileName), 'utf8'))).toMatchObject({
        pid: process.pid,
      });
      lock.release();
      expect(() => lockDataDir(dataDir)).toThrow(DataDirLockedError);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('knows its folder through another path to it', async () => {
    const child = await lockInChild();
    const link = path.join(tmpdir(), `hijama-lock-link-${process.pid}`);
    symlinkSync(dataDir, link);
    try {
      expect(() => lockDataDir(link)).toThrow(new RegExp(`process ${child.pid} `));
    } finally {
      unlinkSync(link);
    }
  });

  it('takes over a lock whose process no longer exists', () => {
    writeLock({ pid: pidOfEndedProcess() });
    lockDataDir(dataDir).release();
  });

  it('takes over a lock left with a truncated file', () => {
    writeFileSync(lockPath, '{"pid": 12');
    lockDataDir(dataDir).release();
  });

  it('takes over a lock naming this very process, which cannot be holding it', () => {
    writeLock({ pid: process.pid });
    lockDataDir(dataDir).release();
  });

  it.runIf(hasProc)('takes over a lock whose pid now belongs to a different process', async () => {
    const child = spawn('sleep', ['30']);
    children.push(child);
    await once(child, 'spawn');
    writeLock({
      pid: child.pid,
      startTime: '1',
      bootId: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
    });
    lockDataDir(dataDir).release();
  });

  it.runIf(hasProc)('takes over a lock written before the last reboot', async () => {
    const child = spawn('sleep', ['30']);
    children.push(child);
    await once(child, 'spawn');
    writeLock({ pid: child.pid, bootId: 'a-previous-boot' });
    lockDataDir(dataDir).release();
  });

  it('does not remove a lock that another server has taken since', () => {
    const lock = lockDataDir(dataDir);
    writeLock({ pid: 1 });
    lock.release();
    expect(existsSync(lockPath)).toBe(true);
  });
});
