import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { developmentAnonKey } from '../../supabase/functions/_shared/core/api-defaults.ts';
import { shortReference } from '../../supabase/functions/_shared/core/booking-reference.ts';
import { serverEngines } from '../testing/helpers.ts';
import {
  freePort,
  sleep,
  startSmtpPeer,
  waitFor,
  type SmtpPeer,
} from '../testing/notification-peers.ts';
import {
  listeningUrl,
  makeServerWorkDir,
  startServerProcess,
  type ChildRun,
} from '../testing/processes.ts';

/**
 * The server process killed (SIGKILL) after a booking was stored and before
 * its notification went out: the next start sends it, once.
 */

const engines = serverEngines();

describe.each(engines)('a server killed before sending a notification, on $name', (engine) => {
  let workDir: string;
  let env: Record<string, string>;
  let cleanUp: () => Promise<void>;
  let smtpPort: number;
  let peer: SmtpPeer | undefined;
  const started: ChildRun[] = [];

  beforeAll(async () => {
    let distDir: string;
    ({ workDir, distDir } = makeServerWorkDir('restart'));
    smtpPort = await freePort();
    const prepared = await engine.prepare(workDir);
    cleanUp = prepared.cleanUp;
    env = {
      ...prepared.env,
      PORT: '0',
      DIST_DIR: distDir,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      NOTIFY_TO: 'practice@example.com',
      NOTIFY_POLL_SECONDS: '0.2',
      NOTIFY_RETRY_SECONDS: '1',
      NOTIFY_RETRY_MAX_SECONDS: '1',
      RETENTION: '12mo',
      // This test counts the e-mails of bookings: no daily summary among them.
      NOTIFY_DAILY_SUMMARY_AT: 'off',
    };
  });

  afterAll(async () => {
    for (const server of started) server.child.kill('SIGKILL');
    await Promise.all(started.map((server) => server.exited));
    await peer?.close();
    await cleanUp?.();
    rmSync(workDir, { recursive: true, force: true });
  });

  function start(): ChildRun {
    const server = startServerProcess({ cwd: workDir, env });
    started.push(server);
    return server;
  }

  it('sends the notification after the restart, exactly once', async () => {
    const first = start();
    const url = await listeningUrl(first);
    // The lines after the start line may come in a later chunk of output.
    await waitFor(() => first.stdout().includes('deleted at start and daily'), 'the start lines');
    expect(first.stdout()).toContain(
      'Booking requests are notified by e-mail to practice@example.com.\n' +
        'Booking requests older than 12 months are deleted at start and daily.\n',
    );
    const id = crypto.randomUUID();
    const posted = await fetch(`${url}/rest/v1/bookings`, {
      method: 'POST',
      headers: { apikey: developmentAnonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        id,
        full_name: 'Killed Before Sending',
        phone: '01634 123456',
        email: 'guest@example.com',
        instagram: null,
      }),
    });
    expect(posted.status).toBe(201);

    // The SMTP server is unreachable: the first attempts fail and are recorded,
    // the notification's and then the visitor's acknowledgement's…
    await waitFor(
      () => first.stderr().includes(`Notification of booking ${id} failed (attempt 1)`),
      'the first attempt',
    );
    await waitFor(
      () =>
        first
          .stderr()
          .includes(`acknowledgement of request ${shortReference(id)} failed (attempt 1)`),
      "the acknowledgement's first attempt",
    );
    // …and the process dies before their next attempts, a second later.
    first.child.kill('SIGKILL');
    await first.exited;

    peer = await startSmtpPeer({ port: smtpPort });
    const second = start();
    await listeningUrl(second);
    const toPractice = () => peer!.mails.filter((mail) => mail.to.includes('practice@example.com'));
    const toVisitor = () => peer!.mails.filter((mail) => !mail.to.includes('practice@example.com'));
    await waitFor(() => toPractice().length === 1, 'the e-mail after the restart', 20_000);
    await waitFor(() => toVisitor().length === 1, 'the acknowledgement after the restart');
    await sleep(1_000);
    expect(toPractice()).toHaveLength(1);
    expect(toPractice()[0]!.parsed.subject).toBe('Booking request from Killed Before Sending');
    expect(toPractice()[0]!.parsed.messageId).toMatch(new RegExp(`^<booking-${id}@`));
    // The visitor is told once too, though the first process had tried.
    expect(toVisitor()).toHaveLength(1);
    expect(second.stdout()).toContain(`Notified the practice of booking ${id}`);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
