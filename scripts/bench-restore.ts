/**
 * How long a backup and a restore of a practice's whole state take, on the
 * embedded PGlite and on PostgreSQL: 10,000 booking requests (a busy year and
 * more), half of them answered, all notified, reminded and acknowledged.
 * Beside each restore, its control in the same run: the same empty database
 * given the migrations alone, which every restore does first, so that
 * restore − control is what loading the rows costs.
 *
 * Usage: npm run bench:restore [-- --requests 10000]
 * PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local server;
 * databases of its own are created for the run and dropped after.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { formatBackup, parseBackup, readBackup, restoreBackup } from '../server/db/backup.ts';
import { migrate } from '../server/db/migrate.ts';
import { openPglite } from '../server/db/pglite.ts';
import { createScratchDatabase } from '../server/testing/helpers.ts';
import type { Database } from '../supabase/functions/_shared/db/database.ts';
import { openPostgres } from '../supabase/functions/_shared/db/postgres.ts';
import { argument, benchPostgresUrl } from './lib/bench-options.ts';

const requests = Number(argument('--requests') ?? 10_000);

interface Engine {
  name: string;
  /** A new, empty database, and how to be rid of it. */
  open(): Promise<{ db: Database; drop(): Promise<void> }>;
}

/** An opened database, dropped by closing it and then `cleanUp`. */
const opened = (db: Database, cleanUp: () => Promise<void>) => ({
  db,
  drop: async () => {
    await db.close();
    await cleanUp();
  },
});

const engines: Engine[] = [
  {
    name: 'PGlite',
    open: async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'hijama-bench-restore-'));
      return opened(await openPglite(path.join(dir, 'pgdata')), async () =>
        rmSync(dir, { recursive: true, force: true }),
      );
    },
  },
  {
    name: 'PostgreSQL',
    open: async () => {
      const scratch = await createScratchDatabase(benchPostgresUrl);
      return opened(await openPostgres(scratch.url), scratch.drop);
    },
  },
];

/** A database in use: `requests` requests over the last year, as the practice's notifier leaves them. */
async function populate(db: Database) {
  await migrate(db);
  await db.exec(`
    insert into public.bookings (id, full_name, phone, email, created_at)
      select gen_random_uuid(), 'Client ' || n, '07700 900' || lpad((n % 1000)::text, 3, '0'),
             'client' || n || '@example.com', now() - (n * interval '50 minutes')
      from generate_series(1, ${requests}) as n;
    update app_private.messages
       set attempts = 1, email_sent_at = now(), done_at = now(), outcome = 'sent'
     where kind = 'notification';
    insert into app_private.booking_answers (booking_id, answered_at, marked_by)
      select id, created_at + interval '3 hours', 'link' from public.bookings
      where (extract(epoch from created_at)::bigint / 3000) % 2 = 0;
    insert into app_private.messages (kind, booking_id, done_at, outcome)
      select 'reminder', id, created_at + interval '20 hours', 'sent' from public.bookings;
    insert into app_private.messages (kind, booking_id, address_key, done_at, outcome)
      select 'acknowledgement', id, extensions.digest(email, 'sha256'), created_at, 'sent'
        from public.bookings;
  `);
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, (performance.now() - started) / 1000];
}

const rows: string[][] = [];
for (const from of engines) {
  const source = await from.open();
  await populate(source.db);
  const [backup, readSeconds] = await timed(() => readBackup(source.db));
  const text = formatBackup(backup);
  await source.drop();
  for (const to of engines) {
    const control = await to.open();
    const [, controlSeconds] = await timed(() => migrate(control.db));
    await control.drop();
    const target = await to.open();
    const [, restoreSeconds] = await timed(() => restoreBackup(target.db, parseBackup(text)));
    await target.drop();
    rows.push([
      `${from.name} → ${to.name}`,
      `${readSeconds.toFixed(2)} s`,
      `${(Buffer.byteLength(text) / 1024 / 1024).toFixed(1)} MB`,
      `${restoreSeconds.toFixed(2)} s`,
      `${controlSeconds.toFixed(2)} s`,
      `${(restoreSeconds - controlSeconds).toFixed(2)} s`,
    ]);
  }
}

const header = ['backup → restore', 'backup', 'file', 'restore', 'control', 'rows'];
const widths = header.map((title, column) =>
  Math.max(title.length, ...rows.map((row) => row[column]!.length)),
);
const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
console.log(`${requests.toLocaleString('en-GB')} booking requests, the whole state`);
console.log(line(header));
for (const row of rows) console.log(line(row));
console.log(
  'control: the same empty database given the migrations alone; rows: restore − control.',
);
