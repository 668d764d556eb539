import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../testing/command-run.ts';
import { bareEngines } from '../testing/bare-engines.ts';
import { readSchemaCatalog } from '../testing/schema-catalog.ts';
import { readBackup } from './backup.ts';
import { readBookingLimits } from './booking-limits.ts';
import { createBookingsRepository } from '../../supabase/functions/_shared/db/bookings-repository.ts';
import type { Database } from '../../supabase/functions/_shared/db/database.ts';
import { findMigrationsDir, listMigrations, migrate } from './migrate.ts';
import { notifierPass } from '../testing/notifier-pass.ts';
import { bookingWithId } from '../testing/booking-samples.ts';
import {
  addMessagesOfEveryKind,
  oneQueue,
  queuesBeforeOneQueue,
  readMessages,
} from '../testing/queues-before-one.ts';

/**
 * An upgrade from release 1.0.0, as a server makes it at start: a database
 * made by 1.0.0's migrations and in use is given every migration added since.
 * Its rows survive, it ends with the schema of a new database, it takes new
 * rows under the rules, and the bookings command reads it.
 *
 * A later release adds its migration files after `release100Last`; this test
 * then applies them to the 1.0.0 database as they are. Where a release changes
 * rows (a new column with a default, a rule that old rows may break), it adds
 * the check of what it promises about the 1.0.0 rows below.
 */

/** The last migration of release 1.0.0, the baseline. */
const release100Last = '20261201000300_hosted_wake.sql';

/**
 * The 1.0.0 files as released (SHA-256 of each). Databases made by 1.0.0 have
 * run them; editing one would leave those databases with another schema than
 * new ones. A change is a new file (docs/development.md).
 */
const release100Checksums: Record<string, string> = {
  '20261201000000_bookings.sql': '7a272dd08326e859dd2e8ddac873e7cbdd7263f1a1d212abf4d292c968395cfc',
  '20261201000100_limits.sql': 'b6f323c07fd0c1d79ffb07f8707aa96aea96d02d28a3465abb484b39f3260251',
  '20261201000200_notifications.sql':
    '4fb3067077d31186117ba72fad61d81508d5029d58755a755003b1af5d97b6e1',
  '20261201000300_hosted_wake.sql':
    '2044d267adc316fa58f638172a74f50ca3b568729816fe50786c0c5c3f3c409d',
};

async function release100Files(): Promise<string[]> {
  return (await listMigrations()).filter((file) => file <= release100Last);
}

const engines = bareEngines();

const request = (full_name: string, email: string, instagram: string | null = null) =>
  bookingWithId({ full_name, email, instagram });

describe('the migrations of release 1.0.0', () => {
  it('are the files as released', async () => {
    const files = await release100Files();
    expect(files.at(-1)).toBe(release100Last);
    const checksums = Object.fromEntries(
      files.map((file) => [
        file,
        createHash('sha256')
          .update(readFileSync(path.join(findMigrationsDir(), file)))
          .digest('hex'),
      ]),
    );
    expect(checksums).toEqual(release100Checksums);
  });
});

describe.each(engines)('an upgrade from release 1.0.0 on $name', (engine) => {
  it('keeps the rows, ends with the schema of a new database, and takes new rows under the rules', async () => {
    const { db, env, reopen } = await engine.open();
    // As a 1.0.0 server migrates: its files only.
    const release = await migrate(db, findMigrationsDir(), { through: release100Last });
    expect(release.applied).toEqual(await release100Files());

    // A database in use: requests from the form and from the service key, a
    // notification sent, an answer, an alert, a limit changed by hand.
    const repository = createBookingsRepository(db);
    const fromForm = request('Amina Khan', 'amina@example.com', '@Amina.K');
    await repository.insertAsAnon([fromForm], { clientAddress: '192.0.2.1' });
    // An address 1.0.0 took and plain_email refuses: the row stays.
    const fromService = request('Jo Smith', 'jo@example.com,');
    await db.transaction(async (tx) => {
      await tx.query('set local role service_role');
      await tx.query(
        'insert into public.bookings (id, full_name, phone, email) values ($1, $2, $3, $4)',
        [fromService.id, fromService.full_name, fromService.phone, fromService.email],
      );
    });
    await db.query('update app_private.booking_limits set per_email_per_hour = 7');
    await addMessagesOfEveryKind(db, { answered: fromForm.id, waiting: fromService.id });
    const rowsBefore = await readRows(db);
    const messagesBefore = await readMessages(db, queuesBeforeOneQueue);
    await db.close();

    // The next start applies what came after 1.0.0, once.
    const upgraded = await reopen();
    const later = (await listMigrations()).filter((file) => file > release100Last);
    expect(await migrate(upgraded)).toEqual({ applied: later, changed: [] });
    expect(await migrate(upgraded)).toEqual({ applied: [], changed: [] });

    expect(await readRows(upgraded)).toEqual(rowsBefore);
    expect(await readMessages(upgraded, oneQueue)).toEqual(messagesBefore);
    // Nothing sent again: only what was waiting goes, once.
    expect(await notifierPass(upgraded)).toEqual([
      'Booking request from Jo Smith',
      "More booking requests than the site's hourly threshold in an hour: the booking form is being flooded",
    ]);
    expect(await notifierPass(upgraded)).toEqual([]);
    expect(await readBookingLimits(upgraded)).toMatchObject({ perEmailPerHour: 7 });

    const fresh = await engine.open({ migrated: true });
    expect(await readSchemaCatalog(upgraded)).toEqual(await readSchemaCatalog(fresh.db));

    // New rows meet the rules.
    const upgradedRepository = createBookingsRepository(upgraded);
    await expect(
      upgradedRepository.insertAsAnon([{ ...request('Bad', 'bad@example.com'), phone: 'x' }], {
        clientAddress: '192.0.2.2',
      }),
    ).rejects.toMatchObject({ code: '23514' });
    await expect(
      upgradedRepository.insertAsAnon([request('Jo', fromService.email)], {
        clientAddress: '192.0.2.2',
      }),
    ).rejects.toMatchObject({ code: '23514' });
    const fromFormLater = request('Zoë', 'zoe@example.com');
    await upgradedRepository.insertAsAnon([fromFormLater], { clientAddress: '192.0.2.3' });
    await upgraded.close();

    // The bookings command reads the old rows and the new (each format's own is bookings-output.test.ts's).
    const { code, stdout, stderr } = await runCommand(['--json'], { env, cwd: tmpdir() });
    expect({ code, failure: code === 0 ? '' : stderr }).toEqual({ code: 0, failure: '' });
    for (const { id } of [fromForm, fromService, fromFormLater]) expect(stdout).toContain(id);
  }, 180_000);
});

/** The rows of the requests, their answers and the limits, as a backup reads them. */
async function readRows(db: Database) {
  const { tables } = await readBackup(db);
  const kept = ['public.bookings', 'app_private.booking_answers', 'app_private.booking_limits'];
  return kept.map((table) => ({ [table]: tables[table] }));
}
