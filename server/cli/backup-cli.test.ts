import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBackup, type Backup } from '../db/backup.ts';
import { everyLimitLifted } from '../limits/limits-config.ts';
import {
  createScratchDatabase,
  serverEngines,
  testDatabaseUrl,
  type ScratchDatabase,
} from '../testing/helpers.ts';
import { hijamaEntry, spawnEntryPoint } from '../testing/processes.ts';
import { runCommand } from '../testing/command-run.ts';
import { useServerRuns } from '../testing/server-runs.ts';
import { bookingWithId, postBooking } from '../testing/booking-samples.ts';
import { useTempDir } from '../testing/temp-dir.ts';
import { seedPglite } from '../testing/pglite-template.ts';
import type { BookingRecord } from './bookings-output.ts';

/**
 * `hijama backup` as a process while the server takes bookings, then `hijama
 * restore` into a new folder and into a new PostgreSQL database: every booking
 * answered 201 before the backup began is in the backup and in both restored
 * databases.
 */

describe.each(serverEngines())('backup and restore of a server on $name', (engine) => {
  const servers = useServerRuns('backup-cli', engine);
  let url: string;
  /** The new PostgreSQL database restored into. */
  let scratch: ScratchDatabase | undefined;

  beforeAll(async () => {
    ({ url } = await servers.listen(everyLimitLifted));
  });

  afterAll(() => scratch?.drop());

  /** `hijama args` in this process (command-run.ts): the command, without a second of start-up. */
  const hijama = (args: string[], env: Record<string, string>) =>
    runCommand(args, { env, cwd: servers.workDir });

  async function listIds(env: Record<string, string>): Promise<string[]> {
    const run = await hijama(['list', '--json', '--limit', 'all'], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    return (JSON.parse(run.stdout) as BookingRecord[]).map((record) => record.id);
  }

  it('backs up while bookings arrive, and restores into a new folder and a new PostgreSQL database', async () => {
    const answered: { id: string; at: number }[] = [];
    let sending = true;
    let enoughAnswered!: () => void;
    const twentyAnswered = new Promise<void>((resolve) => (enoughAnswered = resolve));
    const keepSending = async () => {
      while (sending) {
        const id = randomUUID();
        const response = await postBooking(url, { id, email: `${id}@example.com` });
        if (response.status !== 201) {
          throw new Error(`A booking was answered ${response.status}: ${await response.text()}`);
        }
        if (answered.push({ id, at: Date.now() }) >= 20) enoughAnswered();
      }
    };
    const senders = [keepSending(), keepSending(), keepSending()];
    await twentyAnswered;

    // A folder that does not exist yet: the command makes it, for its owner alone.
    const backupsDir = path.join(servers.workDir, 'backups');
    const file = path.join(backupsDir, 'hijama.json');
    const backupStarted = Date.now();
    const beforeBackup = answered.filter((booking) => booking.at < backupStarted).map((b) => b.id);
    // In a process of its own, as cron or a shell runs it.
    const backup = spawnEntryPoint(hijamaEntry, ['backup', file], {
      cwd: servers.workDir,
      env: servers.databaseEnv,
    });
    const backupCode = await backup.exited;
    const sentDuringBackup = answered.length - beforeBackup.length;
    sending = false;
    await Promise.all(senders);

    expect(backup.stderr()).toBe('');
    expect(backupCode).toBe(0);
    expect(backup.stdout()).toMatch(
      new RegExp(
        `^Backed up \\d+ booking requests \\(0 answered\\), \\d+ notifications \\(\\d+ not yet sent\\), 0 alerts and \\d+ other tables from ${engine.name === 'PGlite' ? 'the database of the server running on .*' : 'PostgreSQL at .*'} to .*hijama\\.json \\(.* KB\\)\\.\\n$`,
      ),
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(backupsDir).mode & 0o777).toBe(0o700);
    const saved: Backup = parseBackup(readFileSync(file, 'utf8'));
    const savedIds = saved.tables['public.bookings']!.map((row) => row.id as string);
    expect(savedIds).toEqual(expect.arrayContaining(beforeBackup));
    // One snapshot: every booking with its notification, none without.
    expect(
      saved.tables['app_private.messages']!.filter((row) => row.kind === 'notification')
        .map((row) => row.booking_id)
        .sort(),
    ).toEqual([...savedIds].sort());
    // The server kept answering while the backup was taken.
    expect(sentDuringBackup).toBeGreaterThan(0);

    // A backup never overwrites a file.
    const again = await hijama(['backup', file], servers.databaseEnv);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      /hijama\.json exists already, and a backup never overwrites a file/,
    );

    // Into a new folder.
    const restoredDir = path.join(servers.workDir, 'restored');
    const intoFolder = await hijama(['restore', file], { DATA_DIR: restoredDir });
    expect(intoFolder.stderr).toBe('');
    expect(intoFolder.code).toBe(0);
    expect(intoFolder.stdout).toMatch(
      new RegExp(
        `^Restored ${savedIds.length} booking requests \\(0 answered\\), .* into PGlite in .*restored.pgdata\\. Start the server with DATA_DIR=.*restored\\.\\n$`,
      ),
    );
    expect((await listIds({ DATA_DIR: restoredDir })).sort()).toEqual([...savedIds].sort());
    // Only into an empty database (what it says is server/db/backup.test.ts's).
    const twice = await hijama(['restore', file], { DATA_DIR: restoredDir });
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/a backup is restored only into an empty database/);

    if (engine.name === 'PGlite') {
      const onServer = await hijama(['restore', file], servers.databaseEnv);
      expect(onServer.code).toBe(1);
      expect(onServer.stderr).toMatch(
        /^A server is running on .*\. Restore into a new folder instead \(set DATA_DIR to it\), then start the server on that folder\.\n$/,
      );
    }

    // Into a new PostgreSQL database.
    if (testDatabaseUrl) {
      scratch = await createScratchDatabase(testDatabaseUrl);
      const intoPostgres = await hijama(['restore', file], { DATABASE_URL: scratch.url });
      expect(intoPostgres.stderr).toBe('');
      expect(intoPostgres.code).toBe(0);
      expect((await listIds({ DATABASE_URL: scratch.url })).sort()).toEqual([...savedIds].sort());
    }
  }, 240_000);
});

describe('backup and restore, refusing with a plain message', () => {
  const workDir = useTempDir('backup-refusals');
  const hijama = (args: string[]) =>
    runCommand(args, { env: { DATA_DIR: path.join(workDir(), 'data') }, cwd: workDir() });

  it('says so when a file stands where the folder of the backup would be', async () => {
    writeFileSync(path.join(workDir(), 'notes'), '');
    for (const file of ['notes/hijama.json', 'notes/old/hijama.json']) {
      const run = await hijama(['backup', file]);
      expect(run.stderr).toBe(
        `${file} cannot be written: ${path.dirname(file)} is not a folder (it, or a folder above it, is a file). Give a path in a folder, e.g. backups/hijama-$(date +%F).json.\n`,
      );
      expect(run.code).toBe(1);
    }
  });

  it('says so, in one line, when the file cannot be written', async () => {
    // Its draft's name is past the 255 bytes a file name may have: the way EACCES takes, which root cannot meet.
    const file = `${'a'.repeat(240)}.json`;
    await seedPglite(path.join(workDir(), 'data'));
    const run = await hijama(['backup', file]);
    expect(run.stderr).toMatch(
      new RegExp(
        `^Could not write ${file}: ENAMETOOLONG: .*\\. Nothing was written: mend what the error names, then back up again\\.\\n$`,
      ),
    );
    expect(run.code).toBe(1);
  }, 60_000);

  it('says a folder given for a file is not a backup, as a copy of the data folder is put back', async () => {
    mkdirSync(path.join(workDir(), 'hijama-data-20261123-0315'));
    const run = await hijama(['restore', 'hijama-data-20261123-0315']);
    expect(run.stderr).toBe(
      'hijama-data-20261123-0315 is a folder, not a backup made by `hijama backup`: a copy of the data folder is put back as a folder, with the server stopped (docs/deploy.md, "Upgrade"), not with this command.\n',
    );
    expect(run.code).toBe(1);
  });

  // That nothing is loaded, and no row printed, is server/db/backup.test.ts's ("refuses a backup holding a malformed uuid").
  it('refuses a backup holding a value the database refuses, naming the file and the table', async () => {
    const row = { ...bookingWithId({ full_name: 'Amina Khan' }), id: 'not-a-uuid' };
    const backup = { format: 'hijama-backup', version: 2, createdAt: new Date().toISOString() };
    const tables = { 'public.bookings': [row] };
    writeFileSync(
      path.join(workDir(), 'damaged.json'),
      JSON.stringify({ ...backup, migrations: null, tables }),
    );
    // Into a migrated, empty database: a restore that makes one is the first test's.
    await seedPglite(path.join(workDir(), 'data'));
    const refused = await hijama(['restore', 'damaged.json']);
    expect(refused.stderr).toBe(
      'damaged.json is damaged: the database refused its rows of public.bookings (invalid input syntax for type uuid: "not-a-uuid"), so nothing was restored; restore an earlier backup.\n',
    );
    expect(refused.code).toBe(1);
  }, 60_000);
});
