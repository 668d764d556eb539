import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { PassThrough } from 'node:stream';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortReference } from '../../supabase/functions/_shared/core/booking-reference.ts';
import { lockDataDir, lockFileName } from '../db/data-dir-lock.ts';
import { DatabaseError, type Database } from '../../supabase/functions/_shared/db/database.ts';
import { openDatabase, type OpenedDatabase } from '../db/open-database.ts';
import { periodBefore } from '../../supabase/functions/_shared/retention/period.ts';
import { withServerDatabase } from '../testing/helpers.ts';
import { bareEngines } from '../testing/bare-engines.ts';
import { useTempDir } from '../testing/temp-dir.ts';
import { startSmtpPeer } from '../testing/notification-peers.ts';
import { entryPointCommand, hijamaEntry, spawnEntryPoint } from '../testing/processes.ts';
import { formatUkTimeLong } from '../../supabase/functions/_shared/uk-time.ts';
import { askOnTerminal } from './cli-io.ts';
import { commandNames } from './commands.ts';
import { plainMessage } from '../setup-errors.ts';
import { runCommand } from '../testing/command-run.ts';
import { storeWaitingRequest } from '../testing/answer-fixtures.ts';
import { seedPglite } from '../testing/pglite-template.ts';
import {
  formatUnsentWarning,
  type BookingRecord,
  type NotificationRecord,
} from './bookings-output.ts';

/**
 * `hijama` on the embedded database, beside a running server, on PostgreSQL:
 * its arguments, messages and exit codes, and what it reads, writes and
 * deletes. The SQL it runs is tested with its repositories
 * (supabase/functions/_shared/db/, retention/), the output's formats in
 * bookings-output.test.ts.
 */

const hourMs = 60 * 60 * 1000;
const dayMs = 24 * hourMs;

const workDir = useTempDir('cli', { once: true });
let template: string;
let seeded: BookingRecord[];

/** A stored request's notification, waiting: the seeded rows were stored without a notifier. */
const pending: NotificationRecord = {
  state: 'pending',
  attempts: 0,
  last_error: null,
  reached_by: [],
};

/** The warning of `count` requests that no notifier has tried, as formatUnsentWarning words it. */
const unsentWarning = (count: number) =>
  formatUnsentWarning(
    Array<BookingRecord>(count).fill({
      created_at: '2026-01-01T00:00:00.000Z',
      notification: pending,
    } as BookingRecord),
    new Date(),
  );
/** The names of the seeded requests, newest first, as the command lists them. */
const expectedOrder = [
  'Amina Khan',
  'Smith, "Jo"',
  '=HYPERLINK("http://evil.example")',
  'Just Kept',
  'Just Purged',
  'Long Gone',
];
/** Stored before the 12-month limit of the purge tests, and the ones a purge keeps. */
const olderThanYear = ['Just Purged', 'Long Gone'];
const keptByPurge = expectedOrder.filter((name) => !olderThanYear.includes(name));

/** The command in this process, with `env` as its whole environment (command-run.ts). */
const runCli = (
  args: string[],
  env: Record<string, string> = {},
  answer?: (question: string) => string,
) => runCommand(args, { env, cwd: workDir(), answer });

/** The names of the requests a run printed as JSON or CSV (by the id each line starts with), in its order. */
function listedNames(run: { stdout: string }): string[] {
  if (run.stdout.startsWith('[')) {
    return (JSON.parse(run.stdout) as BookingRecord[]).map((record) => record.full_name);
  }
  const ids = run.stdout
    .trimEnd()
    .split('\r\n')
    .slice(1)
    .map((line) => line.slice(1, 37));
  return ids.map((id) => seeded.find((record) => record.id === id)!.full_name);
}

/** Rows with chosen ages, stored as they are listed (created_at cannot come through the API). */
async function seed(db: Database): Promise<BookingRecord[]> {
  const now = Date.now();
  const yearAgo = periodBefore(new Date(now), { count: 12, unit: 'mo' }).getTime();
  const rows: [number, string, string, string, string | null][] = [
    [now - hourMs, 'Amina Khan', '+44 1634 123456', 'amina@example.com', 'amina.k'],
    [now - 3 * dayMs, 'Smith, "Jo"', '01634 123456', 'jo@example.com', null],
    [
      now - 40 * dayMs,
      '=HYPERLINK("http://evil.example")',
      '01634 654321',
      'eve@example.com',
      null,
    ],
    // Either side of the 12-month limit, by an hour.
    [yearAgo + hourMs, 'Just Kept', '01634 111111', 'kept@example.com', null],
    [yearAgo - hourMs, 'Just Purged', '01634 222222', 'purged@example.com', null],
    [now - 800 * dayMs, 'Long Gone', '01634 333333', 'gone@example.com', null],
  ];
  const records = rows.map(([at, full_name, phone, email, instagram]) => ({
    id: crypto.randomUUID(),
    created_at: new Date(at).toISOString(),
    full_name,
    phone,
    email,
    instagram,
  }));
  for (const record of records) await storeWaitingRequest(db, record);
  return records;
}

const byName = (name: string) => seeded.find((record) => record.full_name === name)!;

async function storedNames(db: Database): Promise<string[]> {
  const { rows } = await db.query<{ full_name: string }>(
    'select full_name from public.bookings order by created_at desc',
  );
  return rows.map((row) => row.full_name);
}

/**
 * The settings of a copy of the seeded embedded database, made before the
 * tests of the block (creating one takes seconds; copying, milliseconds).
 */
function useCopyOfTemplate(): { DATA_DIR: string } {
  const env = { DATA_DIR: '' };
  beforeAll(() => {
    env.DATA_DIR = mkdtempSync(path.join(workDir(), 'data-'));
    cpSync(template, env.DATA_DIR, { recursive: true });
  });
  return env;
}

beforeAll(async () => {
  template = path.join(workDir(), 'template');
  await seedPglite(template);
  seeded = await withServerDatabase({ DATA_DIR: template }, seed);
});

/** The records as the command lists them, newest first, none answered, each notification pending unless `states` says. */
function listed(
  records: BookingRecord[],
  states: Record<string, NotificationRecord> = {},
): BookingRecord[] {
  return [...records]
    .sort((a, b) => b.created_at.localeCompare(a.created_at))
    .map((record) => ({
      ...record,
      notification: states[record.full_name] ?? pending,
      answer: null,
    }));
}

// Root reads any file: the unreadable .env is another user's to meet.
it.runIf(process.getuid?.() === 0)(
  'refuses a .env that its user cannot read, in a plain sentence',
  () => {
    const nobody = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim());
    const dir = mkdtempSync(path.join(tmpdir(), 'hijama-env-'));
    chmodSync(dir, 0o755);
    writeFileSync(path.join(dir, '.env'), 'SMTP_URL=smtp://127.0.0.1:2525\n', { mode: 0o600 });
    const [command, ...args] = entryPointCommand(hijamaEntry, ['list']);
    const run = spawnSync(command!, args, {
      cwd: dir,
      uid: nobody,
      gid: nobody,
      env: { PATH: process.env.PATH, DATA_DIR: path.join(dir, 'data') },
      encoding: 'utf8',
    });
    rmSync(dir, { recursive: true, force: true });
    expect([run.status, run.stderr]).toEqual([
      1,
      `Invalid configuration:\n  ${dir}/.env exists, but nobody, who runs this, cannot read it: give it to that user (chmod 600 keeps it theirs alone), or remove it and set the settings in the environment (on a server set up as docs/deploy.md says, in /etc/hijama/hijama.env).\n`,
    ]);
  },
  30_000,
);

describe('hijama on the embedded database, no server running', () => {
  const env = useCopyOfTemplate();
  const smtpError =
    'e-mail to practice@example.com: Invalid login: 535 Authentication failed (EAUTH)';
  const states = {
    // The push took it; the e-mail keeps failing.
    'Amina Khan': { state: 'failing', attempts: 3, last_error: smtpError, reached_by: ['ntfy'] },
    'Smith, "Jo"': { state: 'sent', attempts: 1, last_error: null, reached_by: ['email'] },
  } satisfies Record<string, NotificationRecord>;
  const warning =
    /^Warning: 1 notification is failing: booking request [0-9A-F]{8} reached the practice, but not by every channel\. Last error: e-mail to practice@example\.com: Invalid login: 535 Authentication failed \(EAUTH\)\. docs\/notifications\.md/m;

  beforeAll(async () => {
    // Amina's notification fails by e-mail (the push took it), Jo's was sent, the others wait.
    await withServerDatabase(env, async (db) => {
      // As a notifier records them.
      const notification = `update app_private.messages set attempts = $2, last_error = $3,
          done_at = $4, outcome = $5, email_sent_at = $6, ntfy_sent_at = $7
          where kind = 'notification' and booking_id = $1`;
      const [amina, jo] = [byName('Amina Khan').id, byName('Smith, "Jo"').id];
      await db.query(notification, [amina, 3, smtpError, null, null, null, new Date()]);
      await db.query(notification, [jo, 1, null, new Date(), 'sent', new Date(), null]);
    });
  });

  it('lists the requests newest first as a table, as its own process, and leaves the database unlocked', async () => {
    const run = spawnEntryPoint(hijamaEntry, [], { cwd: workDir(), env });
    expect(await run.exited).toBe(0);
    // The failing notification's warning follows, as the JSON test checks.
    expect(run.stderr().split('\n')[0]).toBe(
      `6 requests, from PGlite in ${path.join(env.DATA_DIR, 'pgdata')}.`,
    );
    // The newest first (the order is the JSON test's), with its notification and, not answered
    // yet, most of a day left to reply: the states and times read reach the table, whose
    // columns are bookings-output.test.ts's.
    expect(run.stdout().split('\n')[2]).toMatch(
      / partly +2[23]h \d+min left +Amina Khan +\+44 1634 123456 +amina@example\.com +amina\.k$/,
    );
    expect(run.stdout()).toContain(`, reached you by ntfy push, 3 attempts: ${smtpError}\n`);
    expect(existsSync(path.join(env.DATA_DIR, lockFileName))).toBe(false);
  });

  it('ends quietly, the database unlocked, when the reader of its output has gone (| head)', async () => {
    const [command, ...args] = entryPointCommand(hijamaEntry, ['export', '--json']);
    const run = spawn(command!, args, { cwd: workDir(), env, stdio: ['ignore', 'pipe', 'pipe'] });
    // Closed before the command writes: every write meets a closed pipe (EPIPE).
    run.stdout.destroy();
    let stderr = '';
    run.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(run, 'exit')) as [number];
    expect([code, stderr]).toEqual([0, expect.not.stringContaining('Error')]);
    expect(existsSync(path.join(env.DATA_DIR, lockFileName))).toBe(false);
  });

  it.runIf(existsSync('/dev/full'))(
    'says plainly, with exit code 1, that its output could not be written (a full disk)',
    async () => {
      const [command, ...args] = entryPointCommand(hijamaEntry, ['export']);
      const full = openSync('/dev/full', 'w');
      const run = spawn(command!, args, { cwd: workDir(), env, stdio: ['ignore', full, 'pipe'] });
      closeSync(full);
      let stderr = '';
      run.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const [code] = (await once(run, 'exit')) as [number];
      expect(code).toBe(1);
      expect(stderr).toContain(
        'Could not write the output: ENOSPC: no space left on device, write. What was written is incomplete. Free space on that disk',
      );
      expect(stderr).not.toMatch(/^\s+at /m);
      expect(existsSync(path.join(env.DATA_DIR, lockFileName))).toBe(false);
    },
  );

  it('writes JSON with every column, each request with its notification, the warnings on standard error', async () => {
    // A misspelt setting, said as the server says it at its start.
    const run = await runCli(['--json'], { ...env, DATABSE_URL: 'postgres://127.0.0.1/x' });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(listed(seeded, states));
    // The failing notification's, and (no notifier has run on this data) the untried requests'.
    expect(run.stderr.split('\n')).toEqual([
      'Warning: DATABSE_URL is not a setting, so it is ignored. Did you mean DATABASE_URL?',
      expect.stringMatching(warning),
      expect.stringMatching(
        /^Warning: \d+ booking requests have waited more than 30 minutes with no attempt/,
      ),
      '',
    ]);
  });

  it.each([
    ['--since 7d --json', ['Amina Khan', 'Smith, "Jo"']],
    // Minutes are min (a bare m is refused: the table of refusals below).
    ['--since 90min --json', ['Amina Khan']],
    ['--since 30min --json', []],
    ['--limit 1 --json', ['Amina Khan']],
    ['--waiting --limit 1 --json', ['Long Gone']],
    ['--since 7d --csv', ['Amina Khan', 'Smith, "Jo"']],
    // Every request, oldest first, CSV unless told JSON.
    ['export', [...expectedOrder].reverse()],
    ['export --since 7d --json', ['Smith, "Jo"', 'Amina Khan']],
  ])('lists "%s"', async (line, names) => {
    const run = await runCli(line.split(' '), env);
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith('[')).toBe(line.includes('--json'));
    expect(listedNames(run)).toEqual(names);
  });

  it.each([
    ['--since 7d', /^2 requests since \w+ \d+ \w+ \d{4}, \d{2}:\d{2} (GMT|BST), from PGlite in /],
    ['--limit 1', /^1 request \(the 1 most recent; --limit all shows every one\), from PGlite in /],
    // As many as the limit, and no more: the list is whole.
    ['--since 7d --limit 2', /^2 requests since [^(]*, from PGlite in /],
  ])('says what the table of "%s" holds: since when, or cut short', async (line, header) => {
    expect((await runCli(line.split(' '), env)).stderr).toMatch(header);
  });

  // Each command line, as words split at spaces, and what it is told.
  const refusals: Record<string, string> = {
    '--since yesterday':
      '--since takes a number of minutes, hours, days, weeks, months or years (15min, 12h, 7d, 2w, 6mo, 1y), a day (23/11/2026 or 2026-11-23), or a date and time with its offset (2026-11-23T09:00:00Z), not "yesterday".',
    // A time without its offset would be read in the machine's zone: the message says what to add.
    '--since 2026-11-23T09:00':
      '--since takes a number of minutes, hours, days, weeks, months or years (15min, 12h, 7d, 2w, 6mo, 1y), a day (23/11/2026 or 2026-11-23), or a date and time with its offset (2026-11-23T09:00:00Z), not "2026-11-23T09:00".',
    '--since 5m':
      '--since "5m" could mean minutes or months: write 5min for minutes or 5mo for months.',
    '--limit 0': '--limit takes a whole number above 0, or all, not "0".',
    '--csv --json': 'Choose one of --csv and --json.',
    purge: 'purge needs --older-than, e.g. npx hijama purge --older-than 12mo.',
    'purge --older-than 12':
      '--older-than takes a number followed by d, w, mo or y (days, weeks, calendar months, years), e.g. 12mo, not "12".',
    'purge --older-than 12m':
      '--older-than "12m" could mean minutes or months: write 12mo for months.',
    'purge --older-than 1y --yes --dry-run': 'Choose one of --yes and --dry-run.',
    '--older-than 1y': '--older-than is an option of purge, not of list.',
    '--sinse 7d': 'list has no option --sinse. Did you mean --since?',
    'purge --older-then 12mo': 'purge has no option --older-then. Did you mean --older-than?',
    'purge --dryrun': 'purge has no option --dryrun. Did you mean --dry-run?',
    'delete 1A2B3C4D -y': 'delete has no option -y. Did you mean --yes?',
    'list --older-then 3d': 'list has no option --older-then. --older-than is an option of purge.',
    'backup x.json --jsno': 'backup has no option --jsno. --json is an option of list and export.',
    lsit: 'There is no command lsit. Did you mean list?',
    'exprot --csv': 'There is no command exprot. Did you mean export?',
    sync: 'There is no command sync: the commands are list, answer, export, purge, delete, notify, backup, restore, check, help.',
    backup: 'backup needs a file: npx hijama backup FILE.',
    'list purge': 'list takes no argument purge. Run one command at a time.',
    '--since': '--since needs a value: --since <when>.',
    '--json=yes': '--json takes no value (got --json=yes).',
    'purge --older-than 12mo --older-than 1d':
      '--older-than is given twice (12mo and 1d): give it once.',
    answer: "answer needs a request's reference: npx hijama answer REF [--by <channel> | --undo].",
    delete: "delete needs a request's reference: npx hijama delete REF [--yes].",
    'answer 1A2B3C4D --undo --by email': 'Choose one of --by and --undo.',
    'answer 1A2B3C4':
      'answer takes a request\'s reference, the 8 characters the e-mail and npx hijama list show (e.g. 1A2B3C4D), or its full id, not "1A2B3C4".',
    'answer 1A2B3C4D --by fax':
      '--by takes one of email, instagram, phone, whatsapp, sms, other, not "fax".',
    'list --by email': '--by is an option of answer, not of list.',
    'answer 1A2B3C4D E5F6A7B8': 'answer takes no argument E5F6A7B8.',
  };

  it.each(Object.entries(refusals))(
    'refuses "%s" in one sentence, with exit code 2',
    async (line, message) => {
      const run = await runCli(line.split(' '), env);
      expect(run.stdout).toBe('');
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(`${message}\n`);
    },
  );

  it("prints its help, and each command's", async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npx hijama <command> \[options\]/);
    expect((await runCli(['-h'])).stdout).toBe(help.stdout);
    for (const command of commandNames.filter((name) => name !== 'help')) {
      expect(help.stdout).toContain(`\n  ${command} `);
      const own = await runCli([command, '--help']);
      expect(own.code).toBe(0);
      expect(own.stdout).toMatch(new RegExp(`^Usage: npx hijama ${command}`));
      expect(await runCli(['help', command])).toEqual(own);
    }
  });

  it('explains a data directory without a database, and makes none', async () => {
    const run = await runCli([], { DATA_DIR: path.join(workDir(), 'never-used') });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/There is no database in .*never-used: .* with its hijama command/);
    expect(existsSync(path.join(workDir(), 'never-used'))).toBe(false);
  });
});

it('says plainly that the database ran out of disk, keeping the stack of any other database error', () => {
  const error = (code: string, message: string) =>
    new DatabaseError(code, message, undefined, undefined, undefined);
  expect(
    plainMessage(
      error('53100', 'could not write to file "pg_wal/xlogtemp.42": No space left on device'),
    ),
  ).toBe(
    'The database could not do it: could not write to file "pg_wal/xlogtemp.42": No space left on device (53100). Free space on its disk, then try again.',
  );
  expect(plainMessage(error('42P01', 'relation "x" does not exist'))).toBeUndefined();
});

it('takes Ctrl+C or Ctrl+D at a question for no answer', async () => {
  for (const key of ['\u0003', '\u0004']) {
    const [input, output] = [new PassThrough(), new PassThrough()];
    const answer = askOnTerminal(input, output)('Type "delete" to delete it: ');
    input.write(key);
    expect(await answer).toBe('');
  }
});

describe('hijama purge and notify on the embedded database', () => {
  const env = useCopyOfTemplate();

  it('purge deletes nothing unless confirmed: without a terminal, with --dry-run, or when not told "delete"', async () => {
    // From cron, with no terminal: counted, not shown, so that no log keeps their names.
    const run = await runCli(['purge', '--older-than', '12mo'], env);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^2 booking requests older than 12 months \(received before .+\), from PGlite in [^\n]+\.\n$/,
    );
    expect(run.stderr).toBe(
      '\nNothing deleted: there is no terminal to confirm on, and purge deletes only when confirmed. ' +
        'Add --yes to delete them: npx hijama purge --older-than 12mo --yes\n',
    );
    const dryRun = await runCli(['purge', '--older-than', '12mo', '--dry-run'], env);
    expect(dryRun.code).toBe(0);
    expect(dryRun.stdout).toMatch(
      /^2 booking requests older than 12 months \(received before .+\), from PGlite in .+:\n\nRef /,
    );
    expect(dryRun.stdout.match(/Just Kept|Just Purged|Long Gone/g)).toEqual(olderThanYear);
    expect(dryRun.stdout).toMatch(/\nNothing deleted \(--dry-run\)\.\n$/);
    const declined = await runCli(['purge', '--older-than', '12mo'], env, () => 'no');
    expect(declined.questions).toEqual(['\nType "delete" to delete these 2 booking requests: ']);
    expect(declined.code).toBe(1);
    expect(declined.stderr).toBe('Nothing deleted.\n');
    expect(await withServerDatabase(env, storedNames)).toEqual(expectedOrder);
  });

  it('purge deletes when "delete" is typed at the terminal', async () => {
    const run = await runCli(['purge', '--older-than', '12mo'], env, () => 'delete');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /\n\nDeleted 2 booking requests older than 12 months \(received before/,
    );
    expect(await withServerDatabase(env, storedNames)).toEqual(keptByPurge);
  });

  it('sends the pending notifications once with notify --once, as a scheduler would', async () => {
    const peer = await startSmtpPeer();
    try {
      const notifyEnv = {
        ...env,
        SMTP_URL: `smtp://127.0.0.1:${peer.port}`,
        NOTIFY_TO: 'practice@example.com',
      };
      const first = await runCli(['notify', '--once'], notifyEnv);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/Sent 4 notifications by e-mail to practice@example\.com\.\n$/);
      const subjects = peer.mails.map((mail) => mail.parsed.subject ?? '');
      expect(
        subjects.filter((subject) => subject.startsWith('Booking request from ')),
      ).toHaveLength(4);
      // With them, the reminder of the requests waiting past their time, once.
      const sentFirst = peer.mails.length;
      const second = await runCli(['notify', '--once'], notifyEnv);
      expect(second.stdout).toBe('Sent 0 notifications by e-mail to practice@example.com.\n');
      expect(peer.mails).toHaveLength(sentFirst);
    } finally {
      await peer.close();
    }
  });
});

/** Two requests whose ids share their first 8 hex digits, so one short reference names both. */
async function seedTwins(db: Database): Promise<string[]> {
  const ids = ['1a2b3c4d-0000-4000-8000-000000000001', '1a2b3c4d-ffff-4000-8000-000000000002'];
  for (const [index, id] of ids.entries()) {
    const created_at = new Date(Date.now() - (index + 2) * dayMs).toISOString();
    await storeWaitingRequest(db, { id, created_at, full_name: 'Twin' });
  }
  return ids;
}

/**
 * A request with a row of every kind about it, and a neighbour that shares its
 * flood digest and an alert: what `delete` must erase, and what it must keep.
 */
async function seedRequestWithRecords(db: Database, name: string): Promise<[string, string]> {
  const id = await storeWaitingRequest(db, { full_name: name });
  const neighbour = await storeWaitingRequest(db, { full_name: `${name}'s neighbour` });
  await db.query('insert into app_private.booking_answers (booking_id) values ($1)', [id]);
  await db.query(
    `insert into app_private.messages (kind, booking_id, address_key)
     values ('reminder', $1, null), ('acknowledgement', $1, '\\x00')`,
    [id],
  );
  await db.query(
    `insert into app_private.messages (kind, booking_ids) values ('flood_digest', array[$1, $2]::uuid[])`,
    [id, neighbour],
  );
  await db.query(
    `insert into app_private.messages (kind, details) values
       ('acknowledgement_refused', jsonb_build_object('booking_id', $1::text, 'received_at', now(), 'smtp_reply', '550')),
       ('notification_failing', jsonb_build_object('after_minutes', 60, 'notifications',
          jsonb_build_array(jsonb_build_object('booking_id', $1::text), jsonb_build_object('booking_id', $2::text)))),
       ('notification_failing', jsonb_build_object('after_minutes', 60, 'notifications',
          jsonb_build_array(jsonb_build_object('booking_id', $1::text))))`,
    [id, neighbour],
  );
  return [id, neighbour];
}

/** How many rows of each table name the request `id`. */
async function rowsAbout(db: Database, id: string) {
  const { rows } = await db.query<Record<string, number>>(
    `select (select count(*)::int from public.bookings where id = $1) as bookings,
            (select count(*)::int from app_private.messages where kind = 'notification' and booking_id = $1) as notifications,
            (select count(*)::int from app_private.booking_answers where booking_id = $1) as answers,
            (select count(*)::int from app_private.messages where kind = 'reminder' and booking_id = $1) as reminders,
            (select count(*)::int from app_private.messages where kind = 'acknowledgement' and booking_id = $1) as acknowledgements,
            (select count(*)::int from app_private.messages where $1 = any (booking_ids)) as digests,
            (select count(*)::int from app_private.messages where details::text like '%' || $1::text || '%') as alerts`,
    [id],
  );
  return rows[0]!;
}

async function storedAnswers(db: Database) {
  const { rows } = await db.query(
    'select booking_id::text as booking_id, channel, marked_by from app_private.booking_answers order by booking_id',
  );
  return rows as { booking_id: string; channel: string | null; marked_by: string }[];
}

/** The sentence of `answer` for a request just marked, as a pattern. */
function markedSentence(record: BookingRecord, how: string): RegExp {
  const received = formatUkTimeLong(new Date(record.created_at));
  return new RegExp(
    `^Booking request ${shortReference(record.id)} from ${record.full_name}, received ${received}, ` +
      `marked answered on \\w+ \\d+ \\w+ \\d{4}, \\d{2}:\\d{2} (GMT|BST) \\(${how}marked with npx hijama answer\\)\\.\\n$`,
  );
}

describe('hijama answer, list --waiting and delete, no server running', () => {
  const env = useCopyOfTemplate();
  let twins: string[];
  const jo = () => byName('Smith, "Jo"');

  beforeAll(async () => {
    twins = await withServerDatabase(env, seedTwins);
  });

  it('marks a request answered by its reference, any case, and a second time changes nothing', async () => {
    const reference = shortReference(jo().id);
    const first = await runCli(['answer', reference.toLowerCase(), '--by', 'instagram'], env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(markedSentence(jo(), 'by Instagram message, '));
    const answeredOn = /marked answered on (.*) \(by/.exec(first.stdout)![1]!;

    const second = await runCli(['answer', reference, '--by', 'phone'], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(
      `Booking request ${reference} from Smith, "Jo" was already answered on ${answeredOn} ` +
        '(by Instagram message, marked with npx hijama answer): nothing changed.\n',
    );
  });

  it('lists the waiting requests oldest first and how many are late, and the answered one with its mark', async () => {
    const run = await runCli(['list', '--waiting', '--limit', 'all'], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      `7 requests waiting for a reply (6 late), from PGlite in ${path.join(env.DATA_DIR, 'pgdata')}.\n` +
        `${unsentWarning(7)}\n`,
    );
    // Jo, answered, is not among them.
    expect(
      run.stdout.match(/Amina Khan|Twin|Just Kept|Just Purged|Long Gone|=HYPERLINK|Smith/g),
    ).toEqual([
      'Long Gone',
      'Just Purged',
      'Just Kept',
      '=HYPERLINK',
      'Twin',
      'Twin',
      'Amina Khan',
    ]);

    // The mark of the previous test, as stored: how the table shows it is bookings-output.test.ts's.
    const all = await runCli(['list', '--json'], env);
    const answered = (JSON.parse(all.stdout) as BookingRecord[]).find((r) => r.id === jo().id)!;
    expect(answered.answer).toEqual({
      answered_at: expect.any(String) as unknown,
      channel: 'instagram',
      marked_by: 'command',
    });
  });

  it('refuses a reference two requests share, listing them, takes the full id, and says when none has it', async () => {
    const ambiguous = await runCli(['answer', '1A2B3C4D'], env);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stdout).toBe('');
    const received = (index: number) =>
      formatUkTimeLong(new Date(Date.now() - (index + 2) * dayMs)).replace(
        /\d{2}:\d{2}/,
        '\\d{2}:\\d{2}',
      );
    expect(ambiguous.stderr).toMatch(
      new RegExp(
        '^2 booking requests have the reference 1A2B3C4D:\\n' +
          `  ${twins[1]}  received ${received(1)}, from Twin\\n` +
          `  ${twins[0]}  received ${received(0)}, from Twin\\n` +
          'Give the full id of the one you answered: npx hijama answer <full id>\\n$',
      ),
    );

    const byId = await runCli(['answer', twins[0]!.toUpperCase(), '--by', 'email'], env);
    expect(byId.code).toBe(0);
    expect(byId.stdout).toMatch(
      /^Booking request 1A2B3C4D from Twin, received .* \(by e-mail, marked with npx hijama answer\)\.\n$/,
    );
    const marked = (await withServerDatabase(env, storedAnswers)).map((row) => row.booking_id);
    expect(marked).toContain(twins[0]);
    expect(marked).not.toContain(twins[1]);

    const unknown = await runCli(['answer', 'ABCDEF12'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      `No booking request has the reference ABCDEF12 in PGlite in ${path.join(env.DATA_DIR, 'pgdata')}. ` +
        'Check it against the e-mail; npx hijama list shows the references of the requests stored.\n',
    );
  });

  it('takes a mark back with --undo: the request waits again, and a second --undo changes nothing', async () => {
    const reference = shortReference(jo().id);
    const undone = await runCli(['answer', reference, '--undo'], env);
    expect(undone.stderr).toBe('');
    expect(undone.code).toBe(0);
    expect(undone.stdout).toMatch(
      new RegExp(
        `^Booking request ${reference} from Smith, "Jo" is waiting for a reply again: its mark of .* \\(by Instagram message, marked with npx hijama answer\\) is taken back\\.\\n$`,
      ),
    );
    // Read from the database: the mark is gone.
    const again = await runCli(['answer', reference, '--undo'], env);
    expect(again.stdout).toBe(
      `Booking request ${reference} from Smith, "Jo" was not marked answered: nothing changed.\n`,
    );
  });

  it('delete shows what would go and deletes nothing; with --yes every row about the request is gone', async () => {
    const [id, neighbour] = await withServerDatabase(env, (db) =>
      seedRequestWithRecords(db, 'Erase Me'),
    );
    const preview = await runCli(['delete', shortReference(id)], env);
    expect(preview.code).toBe(0);
    expect(preview.stdout).toContain('Erase Me');
    expect(preview.stdout).toContain(
      `Nothing deleted. To delete it: npx hijama delete ${id} --yes\n`,
    );
    // Its request, notification, answer, reminder, acknowledgement, digest and alerts.
    expect(Object.values(await withServerDatabase(env, (db) => rowsAbout(db, id)))).toEqual([
      1, 1, 1, 1, 1, 1, 3,
    ]);

    const deleted = await runCli(['delete', shortReference(id), '--yes'], env);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toMatch(
      new RegExp(`^Deleted booking request ${shortReference(id)} from Erase Me, with its `),
    );
    await withServerDatabase(env, async (db) => {
      expect(Object.values(await rowsAbout(db, id))).toEqual([0, 0, 0, 0, 0, 0, 0]);
      // The neighbour keeps its request, its place in the digest and its alert.
      expect(await rowsAbout(db, neighbour)).toMatchObject({ bookings: 1, digests: 1, alerts: 1 });
    });
    const gone = await runCli(['delete', shortReference(id), '--yes'], env);
    expect(gone.code).toBe(1);
  });
});

describe('hijama when npm kept its flags for itself', () => {
  const dataEnv = useCopyOfTemplate();

  // What npm sets, as seen from a script (npm 11): `npm run bookings …` and `npx hijama …`.
  const npmRun = (event = 'bookings') => ({
    npm_command: 'run',
    npm_lifecycle_event: event,
    npm_lifecycle_script: `node dist-server/server/cli/hijama.js${event === 'notify' ? ' notify' : ''}`,
    npm_config_yes: '',
  });
  const npx = { npm_command: 'exec', npm_config_yes: '' };

  // What was typed, the arguments npm passed on, the settings it kept (npm_config_…) and the
  // command line to type instead.
  const kept: [string, string, Record<string, string>, string][] = [
    [
      'npm run bookings --dry-run -- purge --older-than 12mo --yes',
      'purge --older-than 12mo --yes',
      { dry_run: 'true' },
      'npm run bookings -- purge --older-than 12mo --yes --dry-run',
    ],
    ['npm run bookings --json', '', { json: 'true' }, 'npm run bookings -- --json'],
    // npm prints its own version for this one and never starts the command; were it to…
    ['npm run bookings --csv', '', { csv: 'true' }, 'npm run bookings -- --csv'],
    ['npm run bookings --since 7d', '7d', { since: 'true' }, 'npm run bookings -- --since 7d'],
    [
      'npm run bookings --since=23/11/2026 --limit 5 -- list',
      '5 list',
      { since: '23/11/2026', limit: 'true' },
      'npm run bookings -- list --since 23/11/2026 --limit 5',
    ],
    [
      'npm run bookings --older-than 12mo -- purge --yes',
      '12mo purge --yes',
      { older_than: 'true' },
      'npm run bookings -- purge --yes --older-than 12mo',
    ],
    ['npm run notify --once', 'notify', { once: 'true' }, 'npm run notify -- --once'],
    ['npx --json hijama list', 'list', { json: 'true' }, 'npx hijama list --json'],
  ];

  it.each(kept)(
    '%s: does nothing and prints the command to type',
    async (typed, args, config, instead) => {
      const byNpm = typed.startsWith('npx ') ? npx : npmRun(typed.split(' ')[2]);
      const settings = Object.entries(config).map(([name, value]) => [`npm_config_${name}`, value]);
      const env = { ...dataEnv, ...byNpm, ...Object.fromEntries(settings) };
      const run = await runCli(args.split(' ').filter(Boolean), env);
      const flags = Object.keys(config).map((name) => `--${name.replaceAll('_', '-')}`);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(
        new RegExp(
          `^npm took ${flags.join(' and ')} for itself, so this command did not receive (it|them) and did nothing; `,
        ),
      );
      expect(run.stderr.endsWith(`:\n  ${instead}\n`)).toBe(true);
    },
  );

  it('runs when the flags came through, or when npm kept only its own', async () => {
    const through = await runCli(['--since', '7d', '--json'], {
      ...dataEnv,
      ...npmRun(),
      // A flag set in npm's own settings and also typed after `--` was received.
      npm_config_json: 'true',
    });
    expect(through.code).toBe(0);
    expect(JSON.parse(through.stdout)).toHaveLength(2);
    // npm's own --yes (npx --yes, or yes=true in .npmrc) is never this command's:
    // delete shows the request and deletes nothing, as without it.
    const npxYes = { ...dataEnv, ...npx, npm_config_yes: 'true' };
    const listed = await runCli(['list', '--json'], npxYes);
    expect(listed.code).toBe(0);
    const [first] = JSON.parse(listed.stdout) as BookingRecord[];
    const shown = await runCli(['delete', shortReference(first!.id)], npxYes);
    expect([shown.code, shown.stderr]).toEqual([0, '']);
    expect(shown.stdout).toContain(
      `Nothing deleted. To delete it: npx hijama delete ${first!.id} --yes`,
    );
    // Every request is still there: not even the refused purges with --yes above deleted one.
    const after = await runCli(['list', '--json'], npxYes);
    expect(JSON.parse(after.stdout)).toHaveLength(6);
  });
});

describe('hijama while a server holds the embedded database', () => {
  const env = useCopyOfTemplate();
  let opened: OpenedDatabase;

  beforeAll(async () => {
    // This process takes the lock and shares the database on its socket, as `npm start` would.
    opened = await openDatabase({ databaseUrl: undefined, dataDir: env.DATA_DIR });
    expect(await opened.shareWithCommands()).toBe(true);
  });

  afterAll(async () => {
    await opened?.close();
  });

  it("reads by SQL on the server's socket, found by its data folder whatever PORT says", async () => {
    const table = await runCli([], { ...env, PORT: '1' });
    expect(table.code).toBe(0);
    expect(table.stderr).toBe(
      `6 requests, from the database of the server running on ${env.DATA_DIR}.\n${unsentWarning(6)}\n`,
    );

    const json = await runCli(['--json', '--since', '30d'], env);
    expect(JSON.parse(json.stdout)).toEqual(
      listed(seeded).filter((record) => Date.parse(record.created_at) > Date.now() - 30 * dayMs),
    );
  });

  it('marks a request answered and purges through the server', async () => {
    const amina = byName('Amina Khan');
    const marked = await runCli(['answer', shortReference(amina.id), '--by', 'whatsapp'], env);
    expect(marked.code).toBe(0);
    expect(marked.stdout).toMatch(markedSentence(amina, 'by WhatsApp, '));
    expect(await storedAnswers(opened.db)).toEqual([
      { booking_id: amina.id, channel: 'whatsapp', marked_by: 'command' },
    ]);

    const run = await runCli(['purge', '--older-than', '12mo', '--yes'], env);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(
      /^2 booking requests older than 12 months .*, from the database of the server running on [^\n]*\.\n\nDeleted 2 booking requests older than 12 months/,
    );
    expect(run.stdout).not.toMatch(/Just Purged|Long Gone/);
    expect(await storedNames(opened.db)).toEqual(keptByPurge);
  });

  it('refuses to run a second notifier on the database the server holds', async () => {
    const run = await runCli(['notify', '--once'], {
      ...env,
      NOTIFY_WEBHOOK_URL: 'http://127.0.0.1:1/hook',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/A server is running on .*: it sends the notifications itself/);
  });

  it.each([
    // A lock held with no socket beside it: a server of an earlier version.
    [
      'does not share it',
      'unshared',
      /^A server is running on .* and holds its database, but its socket .*\.s\.PGSQL\.5432 does not answer .*Restart the server with this version, or stop it/,
    ],
    [
      'cannot share it',
      'a-folder-whose-path-is-too-long-for-a-unix-socket'.repeat(2),
      /the folder's path is too long for a socket .*Stop the server to run this command, or move DATA_DIR to a shorter path\.\n$/,
    ],
  ])('says why when the server holding the database %s', async (_, folder, message) => {
    const dir = path.join(workDir(), folder);
    mkdirSync(path.join(dir, 'pgdata'), { recursive: true, mode: 0o700 });
    const lock = lockDataDir(dir);
    try {
      const run = await runCli([], { DATA_DIR: dir });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(message);
    } finally {
      lock.release();
    }
  });
});

/** New PostgreSQL databases of TEST_DATABASE_URL, dropped after the file's tests. */
const postgres = bareEngines().find((engine) => engine.name === 'PostgreSQL');

describe.runIf(postgres)('hijama on PostgreSQL (DATABASE_URL)', () => {
  it('lists the requests of DATABASE_URL, and explains a database without the migrations', async () => {
    const migrated = await postgres!.open({ migrated: true });
    const pgSeeded = await seed(migrated.db);
    const json = await runCli(['--json', '--limit', 'all'], migrated.env);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(listed(pgSeeded));

    const run = await runCli([], (await postgres!.open()).env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/The database has no table public\.bookings: apply the migrations/);
  });
});
