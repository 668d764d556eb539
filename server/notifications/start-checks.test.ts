import { channelSettingsHint } from '../../supabase/functions/_shared/notifications/notify-config.ts';
import { rmSync } from 'node:fs';
import { launchPlaceholders } from '../../src/content/launch-list.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/open-database.ts';
import { periodBefore } from '../../supabase/functions/_shared/retention/period.ts';
import { serverEngines } from '../testing/helpers.ts';
import { startSmtpPeer, waitFor, type SmtpPeer } from '../testing/notification-peers.ts';
import {
  listeningUrl,
  makeServerWorkDir,
  startServerProcess,
  type ChildRun,
} from '../testing/processes.ts';

/** Whether a line holding `fragment` has arrived whole: output may come in several chunks. */
function hasCompleteLine(output: string, fragment: string): boolean {
  return output
    .split('\n')
    .slice(0, -1)
    .some((line) => line.includes(fragment));
}

/**
 * What the server process says at start about the notifications and the
 * retention: a refused SMTP login, no channel at all, and the purge that the
 * privacy notice promises, on by default.
 */

describe.each(serverEngines())('the server at start, on $name', (engine) => {
  let workDir: string;
  let distDir: string;
  let databaseEnv: Record<string, string>;
  let cleanUp: () => Promise<void>;
  let peer: SmtpPeer;
  const started: ChildRun[] = [];

  beforeAll(async () => {
    ({ workDir, distDir } = makeServerWorkDir('start-checks'));
    const prepared = await engine.prepare(workDir);
    databaseEnv = prepared.env;
    cleanUp = prepared.cleanUp;
    peer = await startSmtpPeer({ auth: { user: 'clinic', pass: 's3cret' } });
  });

  afterAll(async () => {
    for (const server of started) server.child.kill('SIGKILL');
    await Promise.all(started.map((server) => server.exited));
    await peer?.close();
    await cleanUp?.();
    rmSync(workDir, { recursive: true, force: true });
  });

  afterEach(async () => {
    for (const server of started.splice(0)) {
      server.child.kill('SIGTERM');
      expect(await server.exited, server.stderr()).toBe(0);
    }
  });

  async function start(env: Record<string, string>): Promise<ChildRun> {
    const server = startServerProcess({
      cwd: workDir,
      env: { ...databaseEnv, PORT: '0', DIST_DIR: distDir, ...env },
    });
    started.push(server);
    await listeningUrl(server);
    return server;
  }

  const email = (password: string) => ({
    SMTP_URL: `smtp://clinic:${password}@127.0.0.1:${peer.port}`,
    NOTIFY_TO: 'practice@example.com',
    NOTIFY_DAILY_SUMMARY_AT: 'off',
  });

  it('says in plain words that the SMTP server refused the login, and what to check', async () => {
    const server = await start(email('wrong'));
    await waitFor(() => hasCompleteLine(server.stderr(), 'cannot be e-mailed'), 'the SMTP check');
    expect(server.stderr()).toContain(
      `Warning: booking requests cannot be e-mailed: the SMTP server 127.0.0.1:${peer.port} refused the login of clinic (535 Invalid username or password). ` +
        'Check the user name and password in SMTP_URL, with special characters written as %XX (@ is %40). ' +
        'Gmail, Google Workspace and Microsoft 365 need an app password, not the account\u2019s own. ' +
        'Requests are still stored, and their e-mails are retried until they get through: fix SMTP_URL in .env and restart the server.\n',
    );
    expect(server.stdout()).toContain(
      'Booking requests are notified by e-mail to practice@example.com.\n',
    );
    expect(peer.mails).toHaveLength(0);
  });

  it('says that the SMTP login works', async () => {
    const server = await start(email('s3cret'));
    await waitFor(() => hasCompleteLine(server.stdout(), 'accepted the login'), 'the SMTP check');
    expect(server.stdout()).toContain(
      `E-mail: the SMTP server 127.0.0.1:${peer.port} accepted the login of clinic.\n`,
    );
    // Nothing but the placeholders and SAMPLE reviews still in the content, once.
    const placeholders = launchPlaceholders(undefined);
    expect(placeholders.length).toBeGreaterThan(0);
    expect(server.stderr()).toBe(placeholders.map((line) => `Warning: ${line}\n`).join(''));
  });

  it('warns that no one will be told of requests when no channel is configured', async () => {
    const server = await start({});
    const warning =
      'Warning: no notification channel is configured, so no one will be told of booking requests. ' +
      'They are stored, and `npm run bookings` lists them, but nobody is e-mailed. ' +
      `Set ${channelSettingsHint} in .env and restart the server (docs/notifications.md).\n`;
    await waitFor(() => server.stderr().includes(warning), 'the warning');
    expect(server.stderr()).toContain(warning);
  });

  /** Stores requests received just before and just after 12 months ago, as the database owner. */
  async function storeAroundTheLimit() {
    const opened = await openDatabase({
      databaseUrl: databaseEnv.DATABASE_URL,
      dataDir: databaseEnv.DATA_DIR ?? '',
    });
    try {
      await opened.db.query('delete from public.bookings');
      const limit = periodBefore(new Date(), { count: 12, unit: 'mo' });
      for (const [name, offsetMs] of [
        ['Past The Promise', -3_600_000],
        ['Within The Promise', 3_600_000],
      ] as const) {
        await opened.db.query(
          `insert into public.bookings (created_at, full_name, phone, email) values ($1, $2, '01634 123456', 'guest@example.com')`,
          [new Date(limit.getTime() + offsetMs).toISOString(), name],
        );
      }
    } finally {
      await opened.close();
    }
  }

  async function storedNames(): Promise<string[]> {
    const opened = await openDatabase({
      databaseUrl: databaseEnv.DATABASE_URL,
      dataDir: databaseEnv.DATA_DIR ?? '',
    });
    try {
      const { rows } = await opened.db.query<{ full_name: string }>(
        'select full_name from public.bookings order by created_at',
      );
      return rows.map((row) => row.full_name);
    } finally {
      await opened.close();
    }
  }

  it('deletes the requests older than the privacy notice’s 12 months at start, without RETENTION', async () => {
    await storeAroundTheLimit();
    const server = await start({});
    await waitFor(() => hasCompleteLine(server.stdout(), 'Retention: deleted'), 'the purge');
    expect(server.stdout()).toContain(
      'Booking requests older than 12 months are deleted at start and daily.\n',
    );
    expect(server.stdout()).toMatch(
      /Retention: deleted 1 booking request older than 12 months \(before \S+\)\.\n/,
    );
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    started.splice(0);
    expect(await storedNames()).toEqual(['Within The Promise']);
  });

  it('keeps them with RETENTION=off, and warns that the privacy notice says otherwise', async () => {
    await storeAroundTheLimit();
    const server = await start({ RETENTION: 'off' });
    await waitFor(() => hasCompleteLine(server.stderr(), 'RETENTION is off'), 'the warning');
    expect(server.stderr()).toContain(
      'Warning: RETENTION is off, so booking requests are kept until deleted by hand, but the privacy notice under the form says they are deleted after 12 months.',
    );
    expect(server.stdout()).not.toContain('deleted at start and daily');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    started.splice(0);
    expect(await storedNames()).toEqual(['Past The Promise', 'Within The Promise']);
  });
});
