import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { practice } from '../../supabase/functions/_shared/content/practice.ts';
import { reviews } from '../../src/content/reviews.ts';
import {
  startNtfyPeer,
  startSmtpPeer,
  waitFor,
  type NtfyPeer,
  type SmtpPeer,
} from '../testing/notification-peers.ts';
import { launchPlaceholders, type LaunchContent } from '../../src/content/launch-list.ts';
import { check } from './check-command.ts';
import type { CliIo } from './cli-io.ts';
import { runCommand } from '../testing/command-run.ts';
import { useTempDir } from '../testing/temp-dir.ts';
import {
  createScratchDatabase,
  testDatabaseUrl,
  withClient,
  withOwnRole,
} from '../testing/helpers.ts';

/**
 * `npx hijama check` and the command's guard of the data directory, with a
 * real SMTP server and a real ntfy server. What the launch list holds is
 * src/content/launch-list.test.ts's.
 */

const topic = 'check-test-topic-0123456789';

/** The launch content once the practice has filled it in: its own facts, no PLACEHOLDER text, the prices confirmed, no SAMPLE review. */
const filledIn: LaunchContent = {
  facts: {
    phone: { display: '01634 000 111', international: '+441634000111' },
    email: 'hello@clinic.test',
    instagram: 'clinic.test',
    skinPiercingRegistration: null,
    address: { venue: 'Room 2', building: 'Upstairs', road: '3 High Street', postcode: 'ME1 1AA' },
  },
  beforeBooking: { practitioner: { name: 'Maryam Said' }, sessionPrices: { confirmed: true } },
  reviews: [],
};

let smtp: SmtpPeer;
let ntfy: NtfyPeer;
const workDir = useTempDir('check');

beforeAll(async () => {
  [smtp, ntfy] = await Promise.all([startSmtpPeer(), startNtfyPeer()]);
});

afterAll(async () => {
  await Promise.all([smtp.close(), ntfy.close()]);
});

/** A deployment's settings in `.env` with `mode`, ready but for what a test changes. */
function writeDotEnv(settings: Record<string, string>, mode = 0o600) {
  const file = path.join(workDir(), '.env');
  const lines = Object.entries({
    DATA_DIR: path.join(workDir(), 'data'),
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    NOTIFY_TO: 'practice@clinic.test',
    NOTIFY_NTFY_URL: ntfy.topicUrl(topic),
    SITE_URL: 'https://www.clinic.test/',
    ...settings,
  }).map(([name, value]) => `${name}=${value}`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  chmodSync(file, mode);
}

/** `npx hijama args`, or `action`, run in this process in the test's folder. */
const run = (args: string[], action?: (io: CliIo) => Promise<number>) =>
  runCommand(args, { cwd: workDir() }, action);

describe('npx hijama check', () => {
  it('fails on the placeholders of the content and on a .env others can read, saying what to do', async () => {
    writeDotEnv({ SITE_URL: '' }, 0o644);
    const result = await run(['check']);
    expect(result.code).toBe(1);
    const fixes = result.stdout.split('\n').filter((line) => line.startsWith('FIX '));
    const placeholders = launchPlaceholders('');
    expect(placeholders.length).toBeGreaterThan(reviews.length);
    expect(fixes).toEqual([
      `FIX  ${path.join(workDir(), '.env')} can be read by other users of this machine (permissions 0644), and it holds the SMTP password and the keys: run chmod 600 ${path.join(workDir(), '.env')}`,
      ...placeholders.map((line) => `FIX  ${line}`),
    ]);
    expect(result.stderr).toBe(
      `${1 + placeholders.length} things to fix before going live (FIX above).\n`,
    );
  });

  it("fails on SITE_URL left at the example's address, the one thing to fix", async () => {
    writeDotEnv({ SITE_URL: practice.url });
    const result = await run([], (io) => check(io, filledIn));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`FIX  SITE_URL is still the example ${practice.url}`);
    expect(result.stderr).toBe('1 thing to fix before going live (FIX above).\n');
  });

  it('fails on a built site that names another address than SITE_URL', async () => {
    writeDotEnv({});
    const dist = path.join(workDir(), 'dist');
    mkdirSync(dist, { recursive: true });
    const builtFor = (url: string) =>
      writeFileSync(path.join(dist, 'index.html'), `<link rel="canonical" href="${url}" />`);
    try {
      // Built without SITE_URL: the example's address.
      builtFor(practice.url);
      const stale = await run([], (io) => check(io, filledIn));
      expect(stale.code).toBe(1);
      expect(stale.stdout).toContain(
        `FIX  The site in ${dist} was built for ${practice.url}, not SITE_URL (https://www.clinic.test/): its canonical link and sitemap name that address. Build it again with SITE_URL set (\`npm run build\`).`,
      );
      builtFor('https://www.clinic.test/');
      expect((await run([], (io) => check(io, filledIn))).stdout).not.toContain('was built for');
    } finally {
      rmSync(dist, { recursive: true });
    }
  });

  it('passes on content filled in, and its test e-mail and push arrive, with no booking made', async () => {
    writeDotEnv({});
    const mailsBefore = smtp.mails.length;
    const result = await run([], (io) => check(io, filledIn));
    expect(result).toEqual({
      code: 0,
      stdout: [
        'ok   The settings are valid.',
        // Not made yet: said so, where it was called private before it existed.
        `ok   The data directory ${path.join(workDir(), 'data')} does not exist yet: the server makes it, private to its user, at its first start.`,
        'ok   No placeholder or SAMPLE review is left in the content, and SITE_URL is set.',
        'ok   Sent a test e-mail to NOTIFY_TO (practice@clinic.test): check that it arrived.',
        `ok   Sent a test push (ntfy push to ${new URL(ntfy.topicUrl(topic)).origin}): check that it arrived.`,
        '',
      ].join('\n'),
      stderr: 'Ready to go live.\n',
      questions: [],
    });
    await waitFor(() => smtp.mails.length > mailsBefore, 'the test e-mail');
    const mail = smtp.mails.at(-1)!;
    expect(mail.to).toEqual(['practice@clinic.test']);
    expect(mail.parsed.subject).toBe(`Test from ${practice.name}'s booking site`);
    expect(mail.parsed.text).toContain('No booking was made');
    await waitFor(() => ntfy.messages.some((message) => message.topic === topic), 'the test push');
    expect(ntfy.messages.find((message) => message.topic === topic)?.title).toBe(
      `Test from ${practice.name}'s booking site`,
    );
  });

  it('names an address of NOTIFY_TO that the mail server refused, though the others took the test', async () => {
    const refusing = await startSmtpPeer({ rejectRecipients: ['b.typo@clinic.test'] });
    onTestFinished(refusing.close);
    writeDotEnv({
      SMTP_URL: `smtp://127.0.0.1:${refusing.port}`,
      NOTIFY_TO: 'practice@clinic.test,b.typo@clinic.test',
    });
    const result = await run([], (io) => check(io, filledIn));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'FIX  Could not send a test e-mail to NOTIFY_TO (practice@clinic.test, b.typo@clinic.test): the mail server refused b.typo@clinic.test, which would never be told of a request: correct NOTIFY_TO.',
    );
    expect(refusing.mails.map((mail) => mail.to)).toEqual([['practice@clinic.test']]);
  });

  it('tries DATABASE_URL, saying plainly when it does not answer', async () => {
    // A password with a / not %-encoded, which a URL reads as the end of the host.
    writeDotEnv({ DATABASE_URL: 'postgresql://localhost:1/secret@127.0.0.1:1/hijama' });
    const refused = await run([], (io) => check(io, filledIn));
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(
      /^FIX {2}Could not connect to PostgreSQL at 127\.0\.0\.1:1\/hijama: .*: check DATABASE_URL, and that the database is running\.$/m,
    );
    expect(refused.stdout).not.toContain('secret');
    if (!testDatabaseUrl) return;
    // Reached, but refused: a database that does not exist (or a wrong password or user).
    const wrongName = new URL(testDatabaseUrl);
    wrongName.pathname = '/no_such_database';
    writeDotEnv({ DATABASE_URL: wrongName.href });
    const wrong = await run([], (io) => check(io, filledIn));
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toMatch(
      /^FIX {2}DATABASE_URL: PostgreSQL at .* refused the connection: database "no_such_database" does not exist \(3D000\)\. Check the database name, the user and the password in DATABASE_URL\.$/m,
    );
    writeDotEnv({ DATABASE_URL: testDatabaseUrl });
    const answered = await run([], (io) => check(io, filledIn));
    expect(answered.stdout).toMatch(/^ok {3}The database .* answers[.:]/m);
    expect(answered.code).toBe(0);
    // Answered, as a user that could not make the tables there.
    await withOwnRole(testDatabaseUrl, { owns: false, actsAsAnon: true }, async (url, user) => {
      writeDotEnv({ DATABASE_URL: url });
      const notOwner = await run([], (io) => check(io, filledIn));
      expect(notOwner.code).toBe(1);
      expect(notOwner.stdout).toMatch(
        new RegExp(
          `^FIX {2}DATABASE_URL's user ${user} may not make the server's tables .*: make it the database's owner`,
          'm',
        ),
      );
    });
  });

  it.runIf(testDatabaseUrl)(
    "fails on a Supabase project's database before `supabase db push`, making nothing in it",
    async () => {
      const scratch = await createScratchDatabase(testDatabaseUrl!);
      onTestFinished(() => scratch.drop());
      // Vault, as every Supabase project has it, and none of the project's tables yet.
      await withClient(scratch.url, (client) => client.query('create schema vault'));
      writeDotEnv({ DATABASE_URL: scratch.url });
      const result = await run([], (io) => check(io, filledIn));
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(
        /^FIX {2}PostgreSQL at .* is the database of a Supabase project whose tables `supabase db push` has not made yet: .* Run `supabase db push` \(docs\/deploy\.md\)/m,
      );
      const made = await withClient(scratch.url, (client) =>
        client.query(`select to_regnamespace('app_private') is not null as found`),
      );
      expect(made.rows[0]).toEqual({ found: false });
    },
  );

  it('names a setting spelt close to one of ours, or beginning as only ours do', async () => {
    writeDotEnv({
      SMTP_ULR: 'smtp://127.0.0.1:1',
      RETENTON: '6mo',
      NOTIFY_ACKNOWLEDGEMENT: 'off',
      // systemd's, under Type=notify: not a wrong one.
      NOTIFY_SOCKET: '/run/systemd/notify',
    });
    const result = await run([], (io) => check(io, filledIn));
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain('NOTIFY_SOCKET');
    expect(result.stdout).toContain(
      'FIX  SMTP_ULR is not a setting, so it is ignored. Did you mean SMTP_URL?',
    );
    expect(result.stdout).toContain(
      'FIX  RETENTON is not a setting, so it is ignored. Did you mean RETENTION?',
    );
    expect(result.stdout).toContain(
      'FIX  NOTIFY_ACKNOWLEDGEMENT is not a setting, so it is ignored: docs/configuration.md lists every one.',
    );
  });

  it('names a RETENTION that breaks the promise of the privacy notice under the form', async () => {
    for (const [retention, start] of [
      ['off', 'RETENTION is off, so booking requests are kept until deleted by hand'],
      ['12d', 'RETENTION=12d is shorter than a month, so nothing is deleted'],
    ] as const) {
      writeDotEnv({ RETENTION: retention });
      const result = await run([], (io) => check(io, filledIn));
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(`FIX  ${start}`);
    }
  });
});

describe('the data directory, as the command finds it', () => {
  it("refuses another user's folder with the chown to run", async () => {
    const nobody = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim());
    const dataDir = path.join(workDir(), 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    chownSync(dataDir, nobody, nobody);
    writeDotEnv({});
    const result = await run(['list']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`belongs to another user (uid ${nobody})`);
    expect(result.stderr).toContain("Run this as the folder's owner");
    expect(result.stderr).toContain(`chown -R ${userInfo().username} ${dataDir}`);
    expect(result.stderr).not.toContain('never run');
  });

  it("says what to do where a file stands in the folder's path, in check as in every command", async () => {
    writeFileSync(path.join(workDir(), 'a-file'), '');
    const dataDir = path.join(workDir(), 'a-file', 'data');
    writeDotEnv({ DATA_DIR: dataDir });
    const line = `DATA_DIR: ${dataDir} cannot be used: a file stands in its path. Set DATA_DIR to a folder, or move the file away.`;
    expect((await run([], (io) => check(io, filledIn))).stdout).toContain(`FIX  ${line}\n`);
    const listed = await run(['list']);
    expect(listed.code).toBe(1);
    expect(listed.stderr).toContain(`  ${line}\n`);
  });

  it('warns of a folder open to its group or to others', async () => {
    const dataDir = path.join(workDir(), 'data');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o750);
    writeDotEnv({});
    const result = await run(['list']);
    expect(result.stderr).toMatch(
      /^Warning: The data directory .* is open to other users of this machine \(permissions 0750\)/,
    );
    expect(result.stderr).toContain(`chmod 700 ${dataDir}`);
  });
});
