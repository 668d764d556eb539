import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { channelSettingsHint } from '../../supabase/functions/_shared/notifications/notify-config.ts';
import { launchPlaceholders } from '../../src/content/launch-list.ts';
import { inTheSettings } from '../settings.ts';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../supabase/functions/_shared/db/database.ts';
import { periodBefore } from '../../supabase/functions/_shared/retention/period.ts';
import { serverEngines, withServerDatabase } from '../testing/helpers.ts';
import { startSmtpPeer, waitFor, type SmtpPeer } from '../testing/notification-peers.ts';
import type { ChildRun } from '../testing/processes.ts';
import { useServerRuns } from '../testing/server-runs.ts';
import { storeWaitingRequest } from '../testing/answer-fixtures.ts';

/** Waits for `text` in `output`, which may come in several chunks; fails showing the output. */
async function says(output: () => string, text: string): Promise<void> {
  await waitFor(() => output().includes(text), JSON.stringify(text)).catch(() => {});
  expect(output()).toContain(text);
}

/**
 * What the server process says at start about the notifications and the
 * retention: a refused SMTP login, no channel at all, and the purge that the
 * privacy notice promises, on by default.
 */

const engines = serverEngines();

describe.each(engines)('the server at start, on $name', (engine) => {
  const servers = useServerRuns('start-checks', engine);
  /** Said of what reads no database: on one engine, PostgreSQL (quicker to start) when there. */
  const onOneEngine = (skip: (condition: boolean) => void) => skip(engine !== engines.at(-1));
  let peer: SmtpPeer;
  const started: ChildRun[] = [];

  beforeAll(async () => {
    peer = await startSmtpPeer({ auth: { user: 'clinic', pass: 's3cret' } });
    return () => peer.close();
  });

  afterEach(async () => {
    for (const server of started.splice(0)) {
      server.child.kill('SIGTERM');
      expect(await server.exited, server.stderr()).toBe(0);
    }
  });

  async function start(env: Record<string, string>): Promise<ChildRun> {
    const { run } = await servers.listen(env);
    started.push(run);
    return run;
  }

  const email = (password: string) => ({
    SMTP_URL: `smtp://clinic:${password}@127.0.0.1:${peer.port}`,
    NOTIFY_TO: 'practice@example.com',
    NOTIFY_DAILY_SUMMARY_AT: 'off',
  });

  it('says in plain words that the SMTP server refused the login, and what to check', async ({
    skip,
  }) => {
    onOneEngine(skip);
    const server = await start(email('wrong'));
    // What it says of the refused login, between the two, is smtp-check.test.ts's.
    await says(
      server.stderr,
      `Warning: booking requests cannot be e-mailed: the SMTP server 127.0.0.1:${peer.port} refused the login of clinic`,
    );
    await says(
      server.stderr,
      `Requests are still stored, and their e-mails are retried until they get through: fix SMTP_URL ${inTheSettings} and restart the server.\n`,
    );
    expect(server.stdout()).toContain(
      'Booking requests are notified by e-mail to practice@example.com.\n',
    );
    expect(peer.mails).toHaveLength(0);
  });

  it('says that the SMTP login works', async () => {
    const server = await start(email('s3cret'));
    await says(
      server.stdout,
      `E-mail: the SMTP server 127.0.0.1:${peer.port} accepted the login of clinic.\n`,
    );
    // Nothing but the placeholders and SAMPLE reviews still in the content, once.
    const placeholders = launchPlaceholders(undefined);
    expect(placeholders.length).toBeGreaterThan(0);
    expect(server.stderr()).toBe(placeholders.map((line) => `Warning: ${line}\n`).join(''));
  });

  it('warns that no one will be told of requests when no channel is configured, and of a site built for another address than SITE_URL', async ({
    skip,
  }) => {
    onOneEngine(skip);
    const builtElsewhere = path.join(servers.workDir, 'built-elsewhere');
    mkdirSync(builtElsewhere, { recursive: true });
    writeFileSync(
      path.join(builtElsewhere, 'index.html'),
      '<!doctype html><link rel="canonical" href="https://www.example.org/">',
    );
    const server = await start({ SITE_URL: 'https://www.clinic.test/', DIST_DIR: builtElsewhere });
    await says(
      server.stderr,
      'was built for https://www.example.org/, not SITE_URL (https://www.clinic.test/)',
    );
    const warning =
      'Warning: no notification channel is configured, so no one will be told of booking requests. ' +
      'They are stored, and `npm run bookings` lists them, but nobody is e-mailed. ' +
      `Set ${channelSettingsHint} ${inTheSettings} and restart the server (docs/notifications.md).\n`;
    await says(server.stderr, warning);
  });

  /** `use` on the server's database, as its owner, while no server runs. */
  const onDatabase = <T>(use: (db: Database) => Promise<T>) =>
    withServerDatabase(servers.databaseEnv, use);

  it.each([
    [
      'deletes the requests older than the privacy notice’s 12 months at start, without RETENTION',
      {} as Record<string, string>,
      /Retention: deleted 1 booking request older than 12 months \(before \S+\)\.\n/,
      ['Within The Promise'],
    ],
    [
      'keeps them with RETENTION=off, and warns that the privacy notice says otherwise',
      { RETENTION: 'off' },
      /Warning: RETENTION is off, so booking requests are kept until deleted by hand, but the privacy notice under the form says they are deleted after 12 months\./,
      ['Past The Promise', 'Within The Promise'],
    ],
  ])('%s', async (_does, env, said, kept) => {
    // Requests received just before and just after 12 months ago.
    const limit = periodBefore(new Date(), { count: 12, unit: 'mo' });
    await onDatabase(async (db) => {
      await db.query('delete from public.bookings');
      for (const [full_name, offsetMs] of [
        ['Past The Promise', -3_600_000],
        ['Within The Promise', 3_600_000],
      ] as const) {
        const created_at = new Date(limit.getTime() + offsetMs).toISOString();
        await storeWaitingRequest(db, { full_name, created_at });
      }
    });
    const server = await start(env);
    const output = () => server.stdout() + server.stderr();
    await waitFor(() => said.test(output()), 'what it says of the retention');
    expect(server.stdout().includes('deleted at start and daily.\n')).toBe(!env.RETENTION);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    started.splice(0);
    const names = await onDatabase((db) =>
      db.query<{ full_name: string }>('select full_name from public.bookings order by created_at'),
    );
    expect(names.rows.map((row) => row.full_name)).toEqual(kept);
  });
});
