import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { developmentAnonKey } from '../../core/api-defaults.ts';
import { shortReference } from '../../core/booking-reference.ts';
import { createApp } from '../app.ts';
import { createBookingsRepository } from '../db/bookings-repository.ts';
import { lockFileName } from '../db/data-dir-lock.ts';
import type { Database } from '../db/database.ts';
import { openDatabase, type OpenedDatabase } from '../db/open-database.ts';
import { createNotificationStates } from '../notifications/notification-states.ts';
import { periodBefore } from '../retention/period.ts';
import {
  createScratchDatabase,
  serve,
  testDatabaseUrl,
  type RunningServer,
  type ScratchDatabase,
} from '../testing/helpers.ts';
import { startSmtpPeer } from '../testing/notification-peers.ts';
import { spawnTypeScript } from '../testing/processes.ts';
import { formatUkTimeLong, formatUkTimeShort } from '../uk-time.ts';
import { runBookings } from './bookings-command.ts';
import type { BookingRecord } from './bookings-output.ts';

/** `npm run bookings`, run as a process: on the embedded database, through a running server, on PostgreSQL. */

const cli = fileURLToPath(new URL('./bookings.ts', import.meta.url));
const serviceKey = 'cli-test-service-role-key-0123456789abcdef';
const hourMs = 60 * 60 * 1000;
const dayMs = 24 * hourMs;

let workDir: string;
let template: string;
let seeded: BookingRecord[];
/** Newest first, as the command lists them. */
let expectedOrder: string[];
/** Stored before the 12-month limit of the purge tests, newest first. */
let olderThanYear: string[];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The command in this process, with `env` as its whole environment. */
async function runCli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runBookings(args, {
    env,
    cwd: workDir,
    out: async (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
    untilStopped: () => new Promise(() => {}),
  });
  return { code, stdout, stderr };
}

/** The command as its own process, as `npm run bookings` starts it. */
async function spawnCli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const run = spawnTypeScript(cli, args, { cwd: workDir, env });
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/** Rows with chosen ages, inserted directly as the database owner (created_at cannot come through the API). */
async function seed(db: Database): Promise<BookingRecord[]> {
  const now = new Date();
  const yearAgo = periodBefore(now, { count: 12, unit: 'm' });
  const rows: Omit<BookingRecord, 'id'>[] = [
    {
      created_at: new Date(now.getTime() - hourMs).toISOString(),
      full_name: 'Amina Khan',
      phone: '+44 1634 123456',
      email: 'amina@example.com',
      instagram: '@amina.k',
    },
    {
      created_at: new Date(now.getTime() - 3 * dayMs).toISOString(),
      full_name: 'Smith, "Jo"',
      phone: '01634 123456',
      email: 'jo@example.com',
      instagram: null,
    },
    {
      created_at: new Date(now.getTime() - 40 * dayMs).toISOString(),
      full_name: '=HYPERLINK("http://evil.example")',
      phone: '01634 654321',
      email: 'eve@example.com',
      instagram: null,
    },
    // Either side of the 12-month limit, by an hour.
    {
      created_at: new Date(yearAgo.getTime() + hourMs).toISOString(),
      full_name: 'Just Kept',
      phone: '01634 111111',
      email: 'kept@example.com',
      instagram: null,
    },
    {
      created_at: new Date(yearAgo.getTime() - hourMs).toISOString(),
      full_name: 'Just Purged',
      phone: '01634 222222',
      email: 'purged@example.com',
      instagram: null,
    },
    {
      created_at: new Date(now.getTime() - 800 * dayMs).toISOString(),
      full_name: 'Long Gone',
      phone: '01634 333333',
      email: 'gone@example.com',
      instagram: null,
    },
  ];
  const records: BookingRecord[] = [];
  for (const row of rows) {
    const id = crypto.randomUUID();
    await db.query(
      'insert into public.bookings (id, created_at, full_name, phone, email, instagram) values ($1, $2, $3, $4, $5, $6)',
      [id, row.created_at, row.full_name, row.phone, row.email, row.instagram],
    );
    records.push({ id, ...row });
  }
  return records;
}

async function storedNames(db: Database) {
  const { rows } = await db.query<{ full_name: string; notified: boolean }>(
    `select b.full_name, n.booking_id is not null as notified
     from public.bookings b left join app_private.booking_notifications n on n.booking_id = b.id
     order by b.created_at desc`,
  );
  return rows;
}

/** A copy of the seeded embedded database (creating one takes seconds; copying, milliseconds). */
function copyOfTemplate(): string {
  const dataDir = mkdtempSync(path.join(workDir, 'data-'));
  cpSync(template, dataDir, { recursive: true });
  return dataDir;
}

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'hijama-cli-'));
  template = path.join(workDir, 'template');
  const opened = await openDatabase({ databaseUrl: undefined, dataDir: template });
  try {
    seeded = await seed(opened.db);
  } finally {
    await opened.close();
  }
  const byAge = [...seeded].sort((a, b) => b.created_at.localeCompare(a.created_at));
  expectedOrder = byAge.map((record) => record.full_name);
  olderThanYear = ['Just Purged', 'Long Gone'];
});

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

/** A stored request's notification, waiting: the seeded rows were stored without a notifier. */
const pending = { state: 'pending', attempts: 0, last_error: null } as const;

/** The records as the command lists them, newest first, each with its notification. */
function listed(records: BookingRecord[]): BookingRecord[] {
  return [...records]
    .sort((a, b) => b.created_at.localeCompare(a.created_at))
    .map((record) => ({ ...record, notification: pending }));
}

/** Makes the notification of the seeded request `name` fail, as a notifier records it. */
async function failNotificationOf(db: Database, name: string, error: string) {
  await db.query(
    `update app_private.booking_notifications n set attempts = 3, last_error = $2
       from public.bookings b where b.id = n.booking_id and b.full_name = $1`,
    [name, error],
  );
}

/** The start of each table line: the short reference and the time. */
function expectedTableLines(names: string[]): string[] {
  return names.map((name) => {
    const record = seeded.find((candidate) => candidate.full_name === name)!;
    return `${shortReference(record.id)}  ${formatUkTimeShort(new Date(record.created_at))}`;
  });
}

describe('npm run bookings on the embedded database, no server running', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = copyOfTemplate();
  });

  it('lists the requests newest first as a table, and leaves the database unlocked', async () => {
    const run = await spawnCli([], { DATA_DIR: dataDir });
    expect(run.stderr).toBe(`6 requests, from PGlite in ${path.join(dataDir, 'pgdata')}.\n`);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^Ref +Received \(UK time\) +Notified +Name +Phone +E-mail +Instagram$/,
    );
    expect(lines[1]).toMatch(/^-+( +-+){6}$/);
    const rows = lines.slice(2);
    expect(rows).toHaveLength(6);
    const starts = expectedTableLines(expectedOrder);
    expect(rows.map((row) => row.slice(0, 31))).toEqual(starts);
    expect(rows.every((row) => row.slice(31).startsWith('  pending  '))).toBe(true);
    expect(rows[0]).toMatch(/ Amina Khan +\+44 1634 123456 +amina@example\.com +@amina\.k$/);
    expect(rows[2]).toContain('=HYPERLINK("http://evil.exa…');
    expect(existsSync(path.join(dataDir, lockFileName))).toBe(false);
  });

  it('filters with --since and --limit', async () => {
    const since = await runCli(['--since', '7d'], { DATA_DIR: dataDir });
    expect(since.code).toBe(0);
    expect(since.stdout.trimEnd().split('\n').slice(2)).toHaveLength(2);
    expect(since.stderr).toMatch(
      /^2 requests since \w+ \d+ \w+ \d{4}, \d{2}:\d{2} (GMT|BST), from/,
    );

    const limited = await runCli(['--limit', '1', '--json'], { DATA_DIR: dataDir });
    expect((JSON.parse(limited.stdout) as BookingRecord[]).map((r) => r.full_name)).toEqual([
      'Amina Khan',
    ]);
  });

  it('exports CSV, quoted and safe to open in a spreadsheet', async () => {
    const run = await runCli(['--csv', '--since', '7d'], { DATA_DIR: dataDir });
    expect(run.code).toBe(0);
    const [amina, jo] = seeded;
    expect(run.stdout).toBe(
      'id,created_at,received_uk,full_name,phone,email,instagram\r\n' +
        `${amina!.id},${amina!.created_at},"${formatUkTimeLong(new Date(amina!.created_at))}",Amina Khan,'+44 1634 123456,amina@example.com,'@amina.k\r\n` +
        `${jo!.id},${jo!.created_at},"${formatUkTimeLong(new Date(jo!.created_at))}","Smith, ""Jo""",01634 123456,jo@example.com,\r\n`,
    );
    const all = await runCli(['--csv'], { DATA_DIR: dataDir });
    expect(all.stdout).toContain(`,"'=HYPERLINK(""http://evil.example"")",`);
  });

  it('exports JSON with every column and the state of each notification', async () => {
    const run = await runCli(['--json'], { DATA_DIR: dataDir });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(listed(seeded));
  });

  it('shows a failing notification with its last error, and warns on standard error', async () => {
    const failingDir = copyOfTemplate();
    const opened = await openDatabase({ databaseUrl: undefined, dataDir: failingDir });
    try {
      await failNotificationOf(
        opened.db,
        'Amina Khan',
        'e-mail to practice@example.com: Invalid login: 535 Authentication failed (EAUTH)',
      );
      await opened.db.query(
        `update app_private.booking_notifications n set completed_at = now(), attempts = 1
           from public.bookings b where b.id = n.booking_id and b.full_name like 'Smith%'`,
      );
    } finally {
      await opened.close();
    }
    const amina = seeded.find((record) => record.full_name === 'Amina Khan')!;
    const warning =
      `Warning: 1 notification is failing: the practice has not been told of booking request ${shortReference(amina.id)}. ` +
      'Last error: e-mail to practice@example.com: Invalid login: 535 Authentication failed (EAUTH). ' +
      'docs/notifications.md, \u201cWhen a notification fails\u201d, says what to check.\n';

    const table = await runCli([], { DATA_DIR: failingDir });
    expect(table.code).toBe(0);
    const lines = table.stdout.split('\n');
    expect(lines[2]!.slice(31).startsWith('  FAILING   Amina Khan ')).toBe(true);
    expect(lines[3]!.slice(31).startsWith('  sent      Smith, "Jo" ')).toBe(true);
    expect(table.stdout).toContain(
      '\nFailing notifications (retried until they get through):\n' +
        `  ${shortReference(amina.id)}  received ${formatUkTimeShort(new Date(amina.created_at))}, 3 attempts: e-mail to practice@example.com: Invalid login: 535 Authentication failed (EAUTH)\n`,
    );
    expect(table.stderr).toBe(
      `6 requests, from PGlite in ${path.join(failingDir, 'pgdata')}.\n${warning}`,
    );

    const json = await runCli(['--json', '--limit', '2'], { DATA_DIR: failingDir });
    expect(
      (JSON.parse(json.stdout) as BookingRecord[]).map((record) => record.notification),
    ).toEqual([
      {
        state: 'failing',
        attempts: 3,
        last_error:
          'e-mail to practice@example.com: Invalid login: 535 Authentication failed (EAUTH)',
      },
      { state: 'sent', attempts: 1, last_error: null },
    ]);
    expect(json.stderr).toBe(warning);
  });

  it('purges exactly the requests older than the limit, with their notifications', async () => {
    const purgeDir = copyOfTemplate();
    const dryRun = await runCli(['purge', '--older-than', '12m', '--dry-run'], {
      DATA_DIR: purgeDir,
    });
    expect(dryRun.stdout).toMatch(
      /^2 booking requests older than 12 months \(received before .+\) would be deleted\.\n$/,
    );
    const run = await runCli(['purge', '--older-than', '12m'], { DATA_DIR: purgeDir });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^Deleted 2 booking requests older than 12 months \(received before/,
    );

    const opened = await openDatabase({ databaseUrl: undefined, dataDir: purgeDir });
    try {
      expect(await storedNames(opened.db)).toEqual(
        expectedOrder
          .filter((name) => !olderThanYear.includes(name))
          .map((full_name) => ({ full_name, notified: true })),
      );
      const { rows } = await opened.db.query('select 1 from app_private.booking_notifications');
      expect(rows).toHaveLength(4);
    } finally {
      await opened.close();
    }
  });

  it('sends the pending notifications once with notify --once, as a scheduler would', async () => {
    const notifyDir = copyOfTemplate();
    const peer = await startSmtpPeer();
    try {
      const env = {
        DATA_DIR: notifyDir,
        SMTP_URL: `smtp://127.0.0.1:${peer.port}`,
        NOTIFY_TO: 'practice@example.com',
      };
      const first = await runCli(['notify', '--once'], env);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/Sent 6 notifications by e-mail to practice@example\.com\.\n$/);
      expect(peer.mails.map((mail) => mail.parsed.subject).sort()).toEqual(
        seeded.map((record) => `Booking request from ${record.full_name}`).sort(),
      );
      const second = await runCli(['notify', '--once'], env);
      expect(second.stdout).toBe('Sent 0 notifications by e-mail to practice@example.com.\n');
      expect(peer.mails).toHaveLength(6);
    } finally {
      await peer.close();
    }
  });

  it.each([
    [['--since', 'yesterday'], /--since must be a period/],
    [['--limit', '0'], /--limit must be a whole number above 0/],
    [['--csv', '--json'], /Choose one of --csv and --json/],
    [['purge'], /purge needs --older-than/],
    [['purge', '--older-than', '12'], /--older-than must be a number followed by d, w, m or y/],
    [['--older-than', '1y'], /--older-than does not apply to list/],
    [['export'], /Unknown command: export/],
  ])('refuses %j with usage help and exit code 2', async (args, message) => {
    const run = await runCli(args, { DATA_DIR: dataDir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toContain('npm run bookings -- --help');
  });

  it('explains a data directory without a database', async () => {
    const run = await runCli([], { DATA_DIR: path.join(workDir, 'never-used') });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/There is no database in .*never-used yet/);
    expect(existsSync(path.join(workDir, 'never-used'))).toBe(false);
  });
});

describe('npm run bookings while a server holds the embedded database', () => {
  let dataDir: string;
  let opened: OpenedDatabase;
  let server: RunningServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = copyOfTemplate();
    // This process takes the lock and serves the API, as `npm start` would.
    opened = await openDatabase({ databaseUrl: undefined, dataDir });
    server = await serve(
      createApp({
        bookings: createBookingsRepository(opened.db),
        keys: { anon: developmentAnonKey, serviceRole: serviceKey },
        notificationStates: createNotificationStates(opened.db),
        distDir: tmpdir(),
      }),
    );
    env = {
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: new URL(server.baseUrl).port,
      SERVICE_ROLE_KEY: serviceKey,
    };
  });

  afterAll(async () => {
    await server?.close();
    await opened?.close();
  });

  it('reads through the server with SERVICE_ROLE_KEY', async () => {
    const table = await runCli([], env);
    expect(table.code).toBe(0);
    expect(table.stderr).toBe(`6 requests, from the server at ${server.baseUrl}.\n`);
    expect(table.stdout.trimEnd().split('\n').slice(2)).toHaveLength(6);

    const json = await runCli(['--json', '--since', '30d'], env);
    expect(JSON.parse(json.stdout)).toEqual(
      listed(seeded).filter((record) => Date.parse(record.created_at) > Date.now() - 30 * dayMs),
    );
  });

  it('shows the notifications\u2019 state through the server, a failing one with its error', async () => {
    await failNotificationOf(
      opened.db,
      'Smith, "Jo"',
      'the webhook answered 500 Internal Server Error',
    );
    try {
      const table = await runCli([], env);
      expect(table.code).toBe(0);
      expect(table.stdout.split('\n')[3]!.slice(31).startsWith('  FAILING   Smith, "Jo" ')).toBe(
        true,
      );
      expect(table.stdout).toMatch(
        /\nFailing notifications \(retried until they get through\):\n {2}[0-9A-F]{8} {2}received .*, 3 attempts: the webhook answered 500 Internal Server Error\n$/,
      );
      expect(table.stderr).toMatch(
        /^6 requests, from the server at .*\nWarning: 1 notification is failing: .* Last error: the webhook answered 500 Internal Server Error\./,
      );
      const json = await runCli(['--json'], env);
      expect((JSON.parse(json.stdout) as BookingRecord[])[1]!.notification).toEqual({
        state: 'failing',
        attempts: 3,
        last_error: 'the webhook answered 500 Internal Server Error',
      });
    } finally {
      await opened.db.query(
        'update app_private.booking_notifications set attempts = 0, last_error = null',
      );
    }
  });

  it('reads the states only with the service key', async () => {
    const url = `${server.baseUrl}/rest/v1/rpc/booking_notification_states`;
    const body = JSON.stringify({ since: seeded[0]!.created_at });
    const anon = await fetch(url, {
      method: 'POST',
      headers: { apikey: developmentAnonKey, 'Content-Type': 'application/json' },
      body,
    });
    expect(anon.status).toBe(401);
    expect(await anon.json()).toMatchObject({ code: '42501' });
    const service = await fetch(url, {
      method: 'POST',
      headers: { apikey: serviceKey, 'Content-Type': 'application/json' },
      body,
    });
    expect(await service.json()).toEqual([{ booking_id: seeded[0]!.id, ...pending }]);
  });

  it('explains that SERVICE_ROLE_KEY is needed, or that the server knows another key', async () => {
    const unset = await runCli([], { ...env, SERVICE_ROLE_KEY: '' });
    expect(unset.code).toBe(1);
    expect(unset.stderr).toMatch(
      /A server is running on .* and holds its database, so the requests are read through it, which needs SERVICE_ROLE_KEY/,
    );

    const wrong = await runCli([], {
      ...env,
      SERVICE_ROLE_KEY: 'another-key-0123456789abcdef-0123456789',
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/refused SERVICE_ROLE_KEY .*started with another key/);

    const elsewhere = await runCli([], { ...env, PORT: '1' });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toMatch(/cannot be reached .*Run this command with the HOST and PORT/);
  });

  it('refuses to run a second notifier on the database the server holds', async () => {
    const run = await runCli(['notify', '--once'], {
      ...env,
      NOTIFY_WEBHOOK_URL: 'http://127.0.0.1:1/hook',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/A server is running on .*: it sends the notifications itself/);
  });

  describe('DELETE /rest/v1/bookings', () => {
    const url = () => `${server.baseUrl}/rest/v1/bookings`;
    const serviceHeaders = { apikey: serviceKey, Authorization: `Bearer ${serviceKey}` };
    const cutoff = () => new Date(Date.now() - 30 * dayMs).toISOString();

    it('is refused to anonymous callers, and without a filter or with a limit', async () => {
      const anon = await fetch(`${url()}?created_at=lt.${cutoff()}`, {
        method: 'DELETE',
        headers: { apikey: developmentAnonKey },
      });
      expect(anon.status).toBe(401);
      expect(await anon.json()).toMatchObject({ code: '42501' });

      const unfiltered = await fetch(url(), { method: 'DELETE', headers: serviceHeaders });
      expect(unfiltered.status).toBe(405);
      expect(await unfiltered.json()).toMatchObject({ code: 'PGRST117', hint: expect.any(String) });

      const limited = await fetch(`${url()}?created_at=lt.${cutoff()}&limit=1`, {
        method: 'DELETE',
        headers: serviceHeaders,
      });
      expect(limited.status).toBe(400);
      expect(await storedNames(opened.db)).toHaveLength(6);
    });

    it('deletes with the service key what the filter matches, counting it when asked', async () => {
      const response = await fetch(
        `${url()}?created_at=lt.${periodBefore(new Date(), { count: 2, unit: 'y' }).toISOString()}`,
        {
          method: 'DELETE',
          headers: { ...serviceHeaders, Prefer: 'count=exact' },
        },
      );
      expect(response.status).toBe(204);
      expect(response.headers.get('content-range')).toBe('*/1');
      expect(response.headers.get('preference-applied')).toBe('count=exact');
      expect((await storedNames(opened.db)).map((row) => row.full_name)).not.toContain('Long Gone');
    });

    it('is what the purge command uses through the server', async () => {
      const run = await runCli(['purge', '--older-than', '12m'], env);
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/^Deleted 1 booking request older than 12 months/);
      expect((await storedNames(opened.db)).map((row) => row.full_name)).toEqual(
        expectedOrder.filter((name) => !olderThanYear.includes(name)),
      );
    });
  });
});

describe.runIf(testDatabaseUrl)('npm run bookings on PostgreSQL (DATABASE_URL)', () => {
  let scratch: ScratchDatabase;
  let opened: OpenedDatabase;
  let pgSeeded: BookingRecord[];

  beforeAll(async () => {
    scratch = await createScratchDatabase(testDatabaseUrl ?? '');
    opened = await openDatabase({ databaseUrl: scratch.url, dataDir: '' });
    pgSeeded = await seed(opened.db);
  });

  afterAll(async () => {
    await opened?.close();
    await scratch?.drop();
  });

  it('lists and purges', async () => {
    const json = await runCli(['--json', '--limit', 'all'], { DATABASE_URL: scratch.url });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(listed(pgSeeded));

    const purge = await runCli(['purge', '--older-than', '12m'], { DATABASE_URL: scratch.url });
    expect(purge.stdout).toMatch(/^Deleted 2 booking requests older than 12 months/);
    expect((await storedNames(opened.db)).map((row) => row.full_name)).toEqual(
      expectedOrder.filter((name) => !olderThanYear.includes(name)),
    );
  });

  it('sends the notifications of the database with notify --once', async () => {
    const peer = await startSmtpPeer();
    try {
      const run = await runCli(['notify', '--once'], {
        DATABASE_URL: scratch.url,
        SMTP_URL: `smtp://127.0.0.1:${peer.port}`,
        NOTIFY_TO: 'practice@example.com',
      });
      expect(run.code).toBe(0);
      // The two older than a year were purged by the test before.
      expect(peer.mails).toHaveLength(4);
    } finally {
      await peer.close();
    }
  });

  it('explains a database without the migrations', async () => {
    const empty = await createScratchDatabase(testDatabaseUrl ?? '');
    try {
      const run = await runCli([], { DATABASE_URL: empty.url });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /The database has no table public\.bookings: apply the migrations/,
      );
    } finally {
      await empty.drop();
    }
  });
});
