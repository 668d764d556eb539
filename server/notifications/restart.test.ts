import { describe, expect, it, onTestFinished } from 'vitest';
import { shortReference } from '../../supabase/functions/_shared/core/booking-reference.ts';
import { queryRunningServer, serverEngines } from '../testing/helpers.ts';
import { freePort, startSmtpPeer, waitFor } from '../testing/notification-peers.ts';
import { useServerRuns } from '../testing/server-runs.ts';
import { postBooking } from '../testing/booking-samples.ts';

/**
 * The server process killed (SIGKILL) after a booking was stored and before
 * its notification went out: the next start sends it, once.
 */

const engines = serverEngines();

describe.each(engines)('a server killed before sending a notification, on $name', (engine) => {
  const servers = useServerRuns('restart', engine);

  it('sends the notification after the restart, exactly once', async () => {
    const smtpPort = await freePort();
    const env = {
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      NOTIFY_TO: 'practice@example.com',
      NOTIFY_POLL_SECONDS: '0.2',
      NOTIFY_RETRY_SECONDS: '1',
      NOTIFY_RETRY_MAX_SECONDS: '1',
      // This test counts the e-mails of bookings: no daily summary among them.
      NOTIFY_DAILY_SUMMARY_AT: 'off',
    };
    const { run: first, url } = await servers.listen(env);
    const id = crypto.randomUUID();
    const posted = await postBooking(url, { id, full_name: 'Killed Before Sending' });
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

    const peer = await startSmtpPeer({ port: smtpPort });
    onTestFinished(() => peer.close());
    const { run: second } = await servers.listen(env);
    // Both sent and marked so: neither is sent again.
    const settled = () =>
      queryRunningServer<{ kind: string; outcome: string }>(
        servers.databaseEnv,
        'select kind, outcome from app_private.messages where booking_id = $1 and done_at is not null order by kind',
        [id],
      );
    await waitFor(
      async () => (await settled()).length === 2,
      'both sent after the restart',
      20_000,
    );
    expect(await settled()).toEqual([
      { kind: 'acknowledgement', outcome: 'sent' },
      { kind: 'notification', outcome: 'sent' },
    ]);
    const toPractice = () => peer.mails.filter((mail) => mail.to.includes('practice@example.com'));
    const toVisitor = () => peer.mails.filter((mail) => !mail.to.includes('practice@example.com'));
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
