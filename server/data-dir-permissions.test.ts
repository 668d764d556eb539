import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  refusedSetupExitStatus,
  DataDirNotPrivateError,
  DataDirOwnerError,
} from './db/private-data-dir.ts';
import { listeningUrl } from './testing/processes.ts';
import { seedPglite } from './testing/pglite-template.ts';
import { underUmask, useServerRuns } from './testing/server-runs.ts';
import { postBooking } from './testing/booking-samples.ts';

/**
 * The server's data folder is its user's alone, even when the server is
 * started with the usual umask 022 (which leaves files readable by everyone):
 * real server processes, started through `sh` with that umask.
 */

const servers = useServerRuns('permissions');
const startServer = (dataDir: string) => servers.start({ DATA_DIR: dataDir }, { umask: '022' });

/** Every file and folder under `dir`, with its permission bits, `dir` first. */
function modesUnder(dir: string): { path: string; mode: string }[] {
  const found = [{ path: dir, mode: lstatSync(dir).mode }];
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const entry = path.join(dir, name);
    // Undefined: a running server's temporary file, gone since the folder was read.
    const stat = lstatSync(entry, { throwIfNoEntry: false });
    // A symbolic link's own bits mean nothing; what it points to is listed itself.
    if (stat && !stat.isSymbolicLink()) found.push({ path: entry, mode: stat.mode });
  }
  return found.map(({ path: entry, mode }) => ({
    path: path.relative(dir, entry) || '.',
    mode: (mode & 0o777).toString(8),
  }));
}

/** The entries that anyone but their owner may read, write or enter. */
const openToOthers = (modes: { mode: string }[]) =>
  modes.filter(({ mode }) => (Number.parseInt(mode, 8) & 0o077) !== 0);

describe('the data folder', () => {
  it('is started under umask 022 by these tests', () => {
    const umask = execFileSync('sh', [
      ...underUmask('022'),
      process.execPath,
      '-e',
      'process.stdout.write(process.umask().toString(8))',
    ]).toString();
    expect(umask).toBe('22');
  });

  it('and everything in it are private to the server once a booking is stored', async () => {
    const dataDir = path.join(servers.workDir, 'data');
    const server = startServer(dataDir);
    const url = await listeningUrl(server);
    const posted = await postBooking(url);
    expect(posted.status).toBe(201);
    const openWhileRunning = openToOthers(modesUnder(dataDir));
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(openWhileRunning).toEqual([]);

    const modes = modesUnder(dataDir);
    // The database's files, its write-ahead log among them, were written.
    expect(modes.some((entry) => entry.path.startsWith(path.join('pgdata', 'pg_wal')))).toBe(true);
    expect(modes.find((entry) => entry.path === '.')?.mode).toBe('700');
    expect(openToOthers(modes)).toEqual([]);
  });

  it('open to others makes the server refuse to start, saying what to run, and touch nothing', async () => {
    const dataDir = path.join(servers.workDir, 'shared data');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    writeFileSync(path.join(dataDir, 'notes.txt'), 'left as it was');
    chmodSync(path.join(dataDir, 'notes.txt'), 0o644);
    const before = modesUnder(dataDir);

    const server = startServer(dataDir);
    expect(await server.exited).toBe(refusedSetupExitStatus);
    const message = new DataDirNotPrivateError(dataDir, 0o755).message;
    expect(server.stderr()).toBe(`${message}\n`);
    expect(server.stdout()).toBe('');
    expect(modesUnder(dataDir)).toEqual(before);

    // The commands of the message (chmod, the path quoted: it holds a space), as typed,
    // make it one the server starts on.
    const commands = message
      .split('\n')
      .filter((line) => line.startsWith('  chmod '))
      .join('\n');
    execFileSync('sh', ['-c', commands]);
    expect(modesUnder(dataDir)).toEqual([
      { path: '.', mode: '700' },
      { path: 'notes.txt', mode: '600' },
    ]);
    // With a migrated database copied in: the server making one, private, is the test above.
    await seedPglite(dataDir);
    await listeningUrl(startServer(dataDir));
  });

  it('with a file in its path makes the server refuse to start with the same exit status, saying what to do', async () => {
    const file = path.join(servers.workDir, 'a file');
    writeFileSync(file, '');
    // Under it, or DATA_DIR the file itself (open to others, 0644): not a folder to make private.
    for (const dataDir of [path.join(file, 'data'), file]) {
      const server = startServer(dataDir);
      expect(await server.exited).toBe(refusedSetupExitStatus);
      expect(server.stderr()).toContain('cannot be used: a file stands in its path.');
      expect(server.stderr()).not.toContain('chmod');
    }
  });

  it("another user's makes the server refuse to start with an exit status systemd does not restart on, naming the chown", async () => {
    // Tests run as root, who may write anywhere: the owner is what tells.
    const nobody = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim());
    const dataDir = path.join(servers.workDir, 'nobody data');
    mkdirSync(dataDir, { mode: 0o700 });
    chownSync(dataDir, nobody, nobody);

    const server = startServer(dataDir);
    expect(await server.exited).toBe(refusedSetupExitStatus);
    const message = new DataDirOwnerError(dataDir, nobody).message;
    expect(server.stderr()).toBe(`${message}\n`);
    expect(message).toContain(`chown -R ${userInfo().username} '${dataDir}'`);
    expect(readdirSync(dataDir)).toEqual([]);

    const unit = readFileSync(
      fileURLToPath(new URL('../deploy/hijama.service', import.meta.url)),
      'utf8',
    );
    expect(unit).toMatch(new RegExp(`^RestartPreventExitStatus=${refusedSetupExitStatus}$`, 'm'));
  });
});
