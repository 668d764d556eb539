import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, testDatabaseUrl } from '../testing/helpers.ts';
import {
  BackupFileError,
  formatBackup,
  parseBackup,
  readBackup,
  restoreBackup,
  RestoreRefusedError,
  type Backup,
} from './backup.ts';
import { readBookingLimits } from './booking-limits.ts';
import { createBookingsRepository } from '../../supabase/functions/_shared/db/bookings-repository.ts';
import type { Database } from '../../supabase/functions/_shared/db/database.ts';
import { appliedMigrations, listMigrations, migrate } from './migrate.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from '../../supabase/functions/_shared/db/postgres.ts';

/**
 * A backup read from one engine and restored into an empty one of either kind:
 * the same rows come back, unchanged and not notified again, and the database
 * works as before (triggers, checks, the alerts' identity).
 */

interface Engine {
  name: string;
  /** An empty database, with no migration applied. */
  empty(): Promise<Database>;
}

const cleanUps: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanUp of cleanUps.reverse()) await cleanUp();
});

function track(db: Database): Database {
  cleanUps.push(() => db.close());
  return db;
}

/** A new PGlite database, closed: creating one takes seconds, copying it milliseconds. */
let pgliteTemplate: Promise<string> | undefined;

function newPgliteTemplate(): Promise<string> {
  pgliteTemplate ??= (async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hijama-backup-template-'));
    cleanUps.push(async () => rmSync(dir, { recursive: true, force: true }));
    await (await openPglite(path.join(dir, 'pgdata'))).close();
    return dir;
  })();
  return pgliteTemplate;
}

const engines: Engine[] = [
  {
    name: 'PGlite',
    empty: async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'hijama-backup-'));
      cleanUps.push(async () => rmSync(dir, { recursive: true, force: true }));
      cpSync(await newPgliteTemplate(), dir, { recursive: true });
      return track(await openPglite(path.join(dir, 'pgdata')));
    },
  },
];
if (testDatabaseUrl) {
  const adminUrl = testDatabaseUrl;
  engines.push({
    name: 'PostgreSQL',
    empty: async () => {
      const scratch = await createScratchDatabase(adminUrl);
      cleanUps.push(() => scratch.drop());
      return track(await openPostgres(scratch.url));
    },
  });
}

const pairs = engines.flatMap((from) => engines.map((to) => ({ from, to })));

const booking = (name: string, email: string) => ({
  id: randomUUID(),
  full_name: name,
  phone: '01634 123456',
  email,
  instagram: null,
});

/** A database in use: bookings, some notified, an alert, limits changed. */
async function populate(db: Database) {
  await migrate(db);
  const repository = createBookingsRepository(db);
  for (const [index, name] of ['Amina Khan', 'Jo Smith', 'Sam Lee'].entries()) {
    await repository.insertAsAnon([booking(name, `p${index}@example.com`)], {
      clientAddress: `192.0.2.${index + 1}`,
    });
  }
  await db.query(
    `update app_private.booking_notifications set attempts = 1, email_sent_at = now(), completed_at = now()
     where booking_id = (select id from public.bookings where full_name = 'Jo Smith')`,
  );
  await db.query(
    `update app_private.booking_notifications set attempts = 2, last_error = 'SMTP 451', next_attempt_at = now() + interval '5 minutes'
     where booking_id = (select id from public.bookings where full_name = 'Sam Lee')`,
  );
  await db.query(`insert into app_private.booking_alerts (kind) values ('flood')`);
  await db.query(`insert into app_private.booking_alerts (kind, sent_at) values ('flood', now())`);
  await db.query(
    'update app_private.booking_limits set per_email_per_hour = 7, site_per_hour = 90',
  );
}

/** What a backup holds, without the moment it was taken. */
function content(backup: Backup) {
  return { migrations: backup.migrations, tables: backup.tables };
}

describe.each(pairs)('a backup of $from.name restored into $to.name', ({ from, to }) => {
  it('brings back every row as it was, and the database works as before', async () => {
    const source = await from.empty();
    await populate(source);
    const backup = parseBackup(formatBackup(await readBackup(source)));
    expect(backup.tables['public.bookings']).toHaveLength(3);
    expect(backup.tables['app_private.booking_notifications']).toHaveLength(3);
    expect(backup.migrations).toEqual(await listMigrations());

    const target = await to.empty();
    expect(await restoreBackup(target, backup)).toEqual({
      'public.bookings': 3,
      'app_private.booking_notifications': 3,
      'app_private.booking_alerts': 2,
      'app_private.booking_limits': 1,
    });
    // Nothing re-notified, nothing trimmed or changed: the same backup again.
    expect(content(await readBackup(target))).toEqual(content(backup));
    expect(await appliedMigrations(target)).toEqual(await listMigrations());
    expect(await readBookingLimits(target)).toMatchObject({ perEmailPerHour: 7, sitePerHour: 90 });

    // The triggers, checks and limits are back: a new booking is notified, a wrong one refused.
    const repository = createBookingsRepository(target);
    await repository.insertAsAnon([booking('New Client', 'new@example.com')], {});
    const { rows } = await target.query<{ count: number }>(
      'select count(*)::integer as count from app_private.booking_notifications',
    );
    expect(rows[0]?.count).toBe(4);
    await expect(
      repository.insertAsAnon([{ ...booking('Bad', 'bad@example.com'), phone: 'x' }], {}),
    ).rejects.toMatchObject({ code: '23514' });
    // The alerts' identity continues after the restored ids.
    const { rows: alert } = await target.query<{ id: string }>(
      `insert into app_private.booking_alerts (kind) values ('flood') returning id::text`,
    );
    expect(Number(alert[0]?.id)).toBe(3);
  });
});

describe.each(engines)('restore on $name', (engine) => {
  it('refuses a database that already holds bookings, changing nothing', async () => {
    const source = await engine.empty();
    await populate(source);
    const backup = await readBackup(source);
    await expect(restoreBackup(source, backup)).rejects.toThrow(RestoreRefusedError);
    await expect(restoreBackup(source, backup)).rejects.toThrow(
      /is not empty \(3 rows in public\.bookings, 3 rows in app_private\.booking_notifications, 2 rows in app_private\.booking_alerts\): a backup is restored only into an empty database/,
    );
    expect(content(await readBackup(source))).toEqual(content(backup));
  });

  it('restores into a database migrated but never used', async () => {
    const source = await engine.empty();
    await populate(source);
    const backup = await readBackup(source);
    const target = await engine.empty();
    await migrate(target);
    await restoreBackup(target, backup);
    expect(content(await readBackup(target))).toEqual(content(backup));
  });

  it('refuses a backup made by a newer version', async () => {
    const source = await engine.empty();
    await populate(source);
    const backup = await readBackup(source);
    backup.migrations = [...backup.migrations!, '29991231000000_from_the_future.sql'];
    const target = await engine.empty();
    await expect(restoreBackup(target, backup)).rejects.toThrow(
      /made by a newer version of this project: its migration 29991231000000_from_the_future\.sql is not in/,
    );
    expect(await appliedMigrations(target)).toBeUndefined();
  });

  it('restores a backup made before release 1.0.0 into the whole 1.0.0 schema', async () => {
    // A build before 1.0.0 recorded migrations that the 1.0.0 baseline replaced;
    // its tables were those of the baseline (the backup holds rows, not schema).
    const source = await engine.empty();
    await populate(source);
    const backup = await readBackup(source);
    backup.migrations = [
      '20261122000000_create_bookings.sql',
      '20261128000000_reminders_and_acknowledgements.sql',
    ];

    const target = await engine.empty();
    await restoreBackup(target, backup);
    expect(await appliedMigrations(target)).toEqual(await listMigrations());
    expect((await readBackup(target)).tables).toEqual(backup.tables);
    expect(await readBookingLimits(target)).toMatchObject({ perEmailPerHour: 7, sitePerHour: 90 });
  });
});

describe('parseBackup', () => {
  const valid: Backup = {
    format: 'hijama-backup',
    version: 1,
    createdAt: '2026-11-23T10:00:00.000Z',
    migrations: ['20261201000000_bookings.sql'],
    tables: { 'public.bookings': [] },
  };

  it('reads what formatBackup writes', () => {
    expect(parseBackup(formatBackup(valid))).toEqual(valid);
  });

  it.each([
    ['not JSON', 'hello', /is not a backup of this project \(it is not JSON\)/],
    ['another JSON file', '{"name": "x"}', /is not a backup made by `hijama backup`/],
    [
      'a later format',
      JSON.stringify({ ...valid, version: 2 }),
      /backup format 2, which this version does not know/,
    ],
    [
      'an unknown table',
      JSON.stringify({ ...valid, tables: { 'public.users': [] } }),
      /a table this version does not know \(public\.users\)/,
    ],
    [
      'rows that are not objects',
      JSON.stringify({ ...valid, tables: { 'public.bookings': [1] } }),
      /the rows of public\.bookings are not readable/,
    ],
    [
      'a strange migration name',
      JSON.stringify({ ...valid, migrations: ['../../etc/passwd'] }),
      /its list of migrations is not readable/,
    ],
    ['no bookings', JSON.stringify({ ...valid, tables: {} }), /holds no bookings table/],
  ])('refuses %s', (_what, text, message) => {
    expect(() => parseBackup(text)).toThrow(BackupFileError);
    expect(() => parseBackup(text)).toThrow(message);
  });
});
