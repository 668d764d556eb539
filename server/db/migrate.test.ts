import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { staleBuilds } from '../../scripts/lib/build-freshness.mjs';
import { runCommand } from '../testing/command-run.ts';
import { bareEngines } from '../testing/bare-engines.ts';
import { bookingWithId } from '../testing/booking-samples.ts';
import { useTempDir } from '../testing/temp-dir.ts';
import { createBookingsRepository } from '../../supabase/functions/_shared/db/bookings-repository.ts';
import type { Database } from '../../supabase/functions/_shared/db/database.ts';
import {
  appliedMigrations,
  findMigrationsDir,
  hasTable,
  listMigrations,
  migrate,
  MigrationError,
} from './migrate.ts';
import { openDatabase } from './open-database.ts';
import { refusedSetupExitStatus } from './private-data-dir.ts';
import { useServerRuns } from '../testing/server-runs.ts';

/**
 * A database that records migrations this version lacks is refused before
 * anything is applied: one made before release 1.0.0 (whose migrations the
 * baseline replaced) with a message that says how to move its rows, one made
 * by a newer version with one that says to update; and one whose tables
 * `supabase db push` made, whose migrations this version does not know applied.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));

// The build `npm test` makes first; a stale one would say nothing of this change.
it.runIf(staleBuilds(root, ['server']).length === 0)(
  'the built server applies the migrations it was built with, not newer ones of the checkout',
  async () => {
    const built = (await import(
      path.join(root, 'dist-server/server/db/migrate.js')
    )) as typeof import('./migrate.ts');
    const carried = built.findMigrationsDir();
    expect(carried).toBe(path.join(root, 'dist-server/supabase/migrations'));
    expect(readdirSync(carried)).toEqual(readdirSync(findMigrationsDir()));
  },
);

const engines = bareEngines();
const workDir = useTempDir('move');

/** Two of the migrations a build before 1.0.0 recorded. */
const before100 = [
  '20261122000000_create_bookings.sql',
  '20261128000000_reminders_and_acknowledgements.sql',
];

/**
 * A database as a build before 1.0.0 left it, from a migrated one: the tables
 * of the baseline (its last build had the same schema), a request, and its own
 * migrations recorded.
 */
async function databaseBefore100(db: Database): Promise<string> {
  const request = bookingWithId();
  await createBookingsRepository(db).insertAsAnon([request], { clientAddress: '192.0.2.1' });
  await db.query('delete from app_private.schema_migrations');
  for (const name of before100) {
    await db.query(`insert into app_private.schema_migrations (name, checksum) values ($1, 'x')`, [
      name,
    ]);
  }
  return request.id;
}

const servers = useServerRuns('migrate-start');

const hijama = (args: string[], env: Record<string, string>) =>
  runCommand(args, { env, cwd: workDir() });

describe.each(engines)('migrate on $name', (engine) => {
  it('refuses a database made before release 1.0.0, changing nothing, and says how to move its rows', async () => {
    const { db, env } = await engine.open({ migrated: true });
    const id = await databaseBefore100(db);
    await db.query('drop table app_private.messages');
    const attempt = migrate(db);
    await expect(attempt).rejects.toThrow(MigrationError);
    await expect(migrate(db)).rejects.toThrow(
      /was made by a build from before release 1\.0\.0: it records 2 migrations \(20261122000000_create_bookings\.sql to 20261128000000_reminders_and_acknowledgements\.sql\) that 1\.0\.0 replaced .* Nothing was changed\. Back it up with `npx hijama backup FILE`.*start from an empty database.*`npx hijama restore FILE`/,
    );
    expect(await appliedMigrations(db)).toEqual(before100);
    expect(await hasTable(db, 'app_private.messages')).toBe(false);
    await db.close();

    // What the message says works: a backup of it, restored into an empty database.
    // The server's start refuses it too.
    await expect(
      openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR ?? workDir() }),
    ).rejects.toThrow(/before release 1\.0\.0/);
    const backup = await hijama(['backup', 'old.json'], env);
    expect(backup).toMatchObject({ code: 0 });
    const target = await engine.open();
    await target.db.close();
    const restored = await hijama(['restore', 'old.json'], target.env);
    expect(restored).toMatchObject({ code: 0 });
    const listed = await hijama(['--json'], target.env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(id);
  }, 240_000);

  it('refuses a schema made by `supabase db push`, changing nothing, and a backup still restores into it', async () => {
    const source = await engine.open({ migrated: true });
    await source.db.close();
    expect(await hijama(['backup', 'move.json'], source.env)).toMatchObject({ code: 0 });
    // As `supabase db push` leaves it: the tables, and the record of them elsewhere.
    const { db, env } = await engine.open({ migrated: true });
    await db.query('drop table app_private.schema_migrations');
    await expect(migrate(db)).rejects.toThrow(
      /were made by `supabase db push`, which keeps its own record of migrations, so the server would apply them all again: it does not start on it\. Nothing was changed\./,
    );
    expect(await hasTable(db, 'app_private.schema_migrations')).toBe(false);
    await db.close();
    // The server says so and exits with the status on which systemd does not restart it.
    const server = servers.start(env);
    expect(await server.exited).toBe(refusedSetupExitStatus);
    expect(server.stderr()).toContain('were made by `supabase db push`');
    const restored = await hijama(['restore', 'move.json'], env);
    expect(restored).toMatchObject({ code: 0 });
    expect(restored.stdout).toContain(
      'the notify-bookings function sends its notifications (docs/deploy.md), not the server.',
    );
  }, 240_000);

  it('refuses a database made by a newer version, changing nothing', async () => {
    const { db } = await engine.open({ migrated: true });
    await db.query(
      `insert into app_private.schema_migrations (name, checksum) values ('29991231000000_from_the_future.sql', 'x')`,
    );
    await expect(migrate(db)).rejects.toThrow(
      /was made by a newer version of this project: its migration 29991231000000_from_the_future\.sql is not in .* Nothing was changed\. Update this copy/,
    );
    expect(await appliedMigrations(db)).toEqual([
      ...(await listMigrations()),
      '29991231000000_from_the_future.sql',
    ]);
  }, 120_000);
});
