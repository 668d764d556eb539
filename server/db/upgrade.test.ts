import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runHijama } from '../cli/hijama-command.ts';
import { createScratchDatabase, testDatabaseUrl } from '../testing/helpers.ts';
import { readBookingLimits } from './booking-limits.ts';
import { createBookingsRepository } from '../../supabase/functions/_shared/db/bookings-repository.ts';
import type { Database } from '../../supabase/functions/_shared/db/database.ts';
import { findMigrationsDir, migrate } from './migrate.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from '../../supabase/functions/_shared/db/postgres.ts';

/**
 * A database made by the previous release's migrations, with rows its rules
 * allowed and this release's refuse, upgraded by this release's migrations as a
 * server does at start: the rows stay readable, new rows meet the new rules, and
 * the bookings command prints the old rows without a raw control character.
 */

/** The last migration of the previous release. */
const previousRelease = '20261123000100_booking_abuse_limits.sql';

function previousMigrationsDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'hijama-previous-migrations-'));
  for (const file of readdirSync(findMigrationsDir())) {
    if (file.endsWith('.sql') && file <= previousRelease) {
      cpSync(path.join(findMigrationsDir(), file), path.join(dir, file));
    }
  }
  return dir;
}

// Allowed by the previous rules (trimmed of spaces, within the lengths, a phone
// of allowed characters), refused by this release's.
const oldRows = [
  { full_name: 'Red\u001b[31m Text\u0007', phone: '----------', email: 'a@example.com' },
  { full_name: 'Amina\u200b Khan\u009b', phone: '07700 900123', email: 'b\u202e@example.com' },
];

interface Engine {
  name: string;
  open(): Promise<{ db: Database; env: Record<string, string>; reopen(): Promise<Database> }>;
}

const cleanUps: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanUp of cleanUps) await cleanUp();
});

const engines: Engine[] = [
  {
    name: 'PGlite',
    open: async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'hijama-upgrade-'));
      cleanUps.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      // Where the server keeps it (open-database.ts).
      const pgdata = path.join(dataDir, 'pgdata');
      return {
        db: await openPglite(pgdata),
        env: { DATA_DIR: dataDir },
        reopen: () => openPglite(pgdata),
      };
    },
  },
];
if (testDatabaseUrl) {
  const adminUrl = testDatabaseUrl;
  engines.push({
    name: 'PostgreSQL',
    open: async () => {
      const scratch = await createScratchDatabase(adminUrl);
      cleanUps.push(() => scratch.drop());
      return {
        db: await openPostgres(scratch.url),
        env: { DATABASE_URL: scratch.url },
        reopen: () => openPostgres(scratch.url),
      };
    },
  });
}

describe.each(engines)('an upgrade from the previous release on $name', (engine) => {
  it('keeps the old rows readable, holds new rows to the new rules, and prints the old rows safely', async () => {
    const { db, env, reopen } = await engine.open();
    let upgraded: Database | undefined;
    try {
      const before = await migrate(db, previousMigrationsDir());
      expect(before.applied.at(-1)).toBe(previousRelease);
      await db.query('update app_private.booking_limits set per_email_per_hour = 7');
      const ids: string[] = [];
      for (const row of oldRows) {
        const id = randomUUID();
        ids.push(id);
        await db.transaction(async (tx) => {
          await tx.query('set local role service_role');
          await tx.query(
            'insert into public.bookings (id, full_name, phone, email) values ($1, $2, $3, $4)',
            [id, row.full_name, row.phone, row.email],
          );
        });
      }
      await db.close();

      // The next start applies what is new, once.
      upgraded = await reopen();
      const report = await migrate(upgraded);
      expect(report.applied.length).toBeGreaterThan(0);
      expect(report.applied.every((file) => file > previousRelease)).toBe(true);
      expect(await migrate(upgraded)).toEqual({ applied: [], changed: [] });

      const repository = createBookingsRepository(upgraded);
      const { rows } = await repository.selectForService({
        columns: ['id', 'full_name', 'phone', 'email'],
        filters: [],
        order: [{ column: 'full_name', descending: false }],
        countTotal: false,
      });
      expect(rows).toHaveLength(2);
      expect(rows).toEqual(
        expect.arrayContaining(oldRows.map((row) => expect.objectContaining(row))),
      );

      // A limit the deployer had set is kept; the new ones start at their defaults.
      expect(await readBookingLimits(upgraded)).toEqual({
        perClientPerHour: 5,
        perEmailPerHour: 7,
        sitePerHour: 20,
      });
      // New rows meet the new rules.
      await expect(
        repository.insertAsAnon([{ id: randomUUID(), ...oldRows[0]!, instagram: null }], {}),
      ).rejects.toMatchObject({ code: '23514' });
      await repository.insertAsAnon(
        [
          {
            id: randomUUID(),
            full_name: 'Zoë',
            phone: '07700 900123',
            email: 'z@example.com',
            instagram: null,
          },
        ],
        {},
      );
      await upgraded.close();
      upgraded = undefined;

      // The command prints the old rows with no raw control character.
      // eslint-disable-next-line no-control-regex -- looking for control characters is the point
      const rawControl = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
      for (const format of ['--csv', '--json']) {
        let stdout = '';
        const code = await runHijama([format], {
          env,
          cwd: tmpdir(),
          out: async (text) => {
            stdout += text;
          },
          err: (text) => {
            stdout += text;
          },
          untilStopped: () => new Promise(() => {}),
        });
        expect({ code, failure: code === 0 ? '' : stdout }).toEqual({ code: 0, failure: '' });
        for (const id of ids) expect(stdout).toContain(id);
        expect(stdout.replaceAll('\n', '')).not.toMatch(rawControl);
      }
    } finally {
      await upgraded?.close();
    }
  });
});
