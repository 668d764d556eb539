import { describe, expect, it } from 'vitest';
import { shortReference } from '../core/booking-reference.ts';
import { storeWaitingRequest } from '../../../../server/testing/answer-fixtures.ts';
import { testEngines } from '../../../../server/testing/helpers.ts';
import {
  emailChannelTo,
  startSmtpPeer,
  type SmtpPeer,
} from '../../../../server/testing/notification-peers.ts';
import { useNotifierHarness } from '../../../../server/testing/notifier-harness.ts';
import { practice } from '../content/practice.ts';
import type { ChannelName } from './channel-names.ts';
import { messageListLimit } from './message-lists.ts';
import { createWebhookChannel, type NotificationChannel } from './channels.ts';
import {
  allDeliveredNote,
  composeAlert,
  createAlertStore,
  recordAcknowledgementRefused,
  type PracticeAlert,
} from './practice-alerts.ts';

/**
 * An alert that notifications are failing speaks only of those still failing
 * when it goes out, against a real database, SMTP server and webhook receiver:
 * one that waited while its notifications got through is never sent.
 */

const alertAfterMs = 60_000;
const bookingId = '5f0c2a8e-2f4b-4c1d-9e8f-0a1b2c3d4e5f';

describe.each(testEngines('alerts'))('alerts for the practice on $name', (engine) => {
  const harness = useNotifierHarness(engine, ['messages']);
  const { infos, errors } = harness;

  /**
   * A notifier as the server runs one, with NOTIFY_ALERT_AFTER_MINUTES=1, but
   * with no retry delay (which no setting allows): what failed is due again at
   * the next run, so that the tests wait for nothing.
   */
  const notifierWith = (channels: NotificationChannel[]) =>
    harness.startNotifier(channels, { start: false, retryMs: 0, alertAfterMs });
  const smtpPeer = () => harness.smtpPeer({ auth: { user: 'clinic', pass: 's3cret' } });

  const emailTo = (peer: SmtpPeer, password: string) =>
    emailChannelTo(peer.port, `clinic:${password}@`);

  const store = (full_name: string) => storeWaitingRequest(harness.db, { full_name });

  async function alerts() {
    const { rows } = await harness.db.query<{ sent: boolean; last_error: string | null }>(
      `select done_at is not null as sent, last_error from app_private.messages
        where kind = 'notification_failing' order by id`,
    );
    return rows;
  }

  it('sends no alert about a notification that got through once the password was fixed', async () => {
    const peer = await smtpPeer();
    // Started with a wrong password: the request fails, then its alert too.
    const broken = notifierWith([emailTo(peer, 'wrong')]);
    await store('Amina Khan');
    expect(await broken.runOnce()).toEqual({ sent: 0, failed: 1 });
    await harness.ageRequests(2);
    await broken.runOnce();
    expect(await alerts()).toEqual([{ sent: false, last_error: expect.stringMatching(/535/) }]);
    expect(errors.at(-1)).toMatch(
      /^An alert for the practice \(notification_failing\) could not be sent: .*535/,
    );
    await broken.stop();

    // Restarted with the right one: the request arrives, and nothing about it failing.
    const fixed = notifierWith([emailTo(peer, 's3cret')]);
    expect(await fixed.runOnce()).toEqual({ sent: 1, failed: 0 });
    expect(peer.mails.map((mail) => mail.parsed.subject)).toEqual([
      'Booking request from Amina Khan',
    ]);
    expect(await alerts()).toEqual([{ sent: true, last_error: allDeliveredNote }]);
    expect(infos).toContain(
      'An alert for the practice (notification_failing) was not sent: the notifications it reported have got through since.',
    );
  });

  it('reports no request that every channel configured now has taken, the failing one since unset', async () => {
    const id = await store('Amina Khan');
    await harness.ageRequests(2);
    await harness.db.query(
      `update app_private.messages set attempts = 2, email_sent_at = now(),
              last_error = 'webhook to https://hooks.test: the webhook answered 500'
        where kind = 'notification' and booking_id = $1`,
      [id],
    );
    expect(await createAlertStore(harness.db).reportFailing(alertAfterMs, ['email'])).toBe(0);
    expect(await alerts()).toEqual([]);
  });

  it('names, when it is sent at last, only the notifications still failing', async () => {
    const peer = await smtpPeer();
    // Two requests and the alert about them: five posts the webhook refuses.
    const hook = await harness.webhookReceiver([500, 500, 500, 500, 500]);
    const channels = () => [emailTo(peer, 'wrong'), createWebhookChannel(hook.url)];
    const first = notifierWith(channels());
    const delivered = await store('First Visitor');
    const failing = await store('Second Visitor');
    await first.runOnce();
    await harness.ageRequests(2);
    await first.runOnce();
    expect(await alerts()).toEqual([{ sent: false, last_error: expect.stringMatching(/500/) }]);

    // Another notifier got the first through meanwhile.
    await harness.db.query(
      `update app_private.messages set done_at = now(), outcome = 'sent'
        where kind = 'notification' and booking_id = $1`,
      [delivered],
    );
    await first.runOnce();
    const sent = hook.requests
      .map(
        (request) =>
          JSON.parse(request.body) as { type: string; alert?: { text: string; subject: string } },
      )
      .filter((body) => body.type === 'practice.alert');
    // The attempt the webhook refused named both; the one it took, only the one still failing.
    expect(sent).toHaveLength(2);
    expect(sent[0]!.alert!.text).toContain(`Ref ${shortReference(delivered)}`);
    const taken = sent[1]!.alert!;
    expect(taken.subject).toBe('A booking request has not reached you by e-mail');
    expect(taken.text).toContain(`Ref ${shortReference(failing)}`);
    expect(taken.text).not.toContain(`Ref ${shortReference(delivered)}`);
    expect(await alerts()).toEqual([{ sent: true, last_error: expect.stringMatching(/500/) }]);
  });

  it("keeps a refused acknowledgement's request and reply, without the address the visitor typed", async () => {
    await storeWaitingRequest(harness.db, { id: bookingId, email: 'Amina@Example.com' });
    await recordAcknowledgementRefused(harness.db, {
      bookingId,
      receivedAt: new Date('2026-11-24T14:02:00Z'),
      smtpReply: '550 5.1.1 <amina@example.com>: Recipient address rejected:\r\n User unknown',
      refusedAddress: 'Amina@Example.com',
    });
    const alert = await createAlertStore(harness.db).claimNext(60_000);
    expect(alert?.kind).toBe('acknowledgement_refused');
    // Nothing else is kept: the address the visitor typed is in none of it.
    expect(alert?.details).toEqual({
      booking_id: bookingId,
      received_at: '2026-11-24T14:02:00.000Z',
      smtp_reply: "550 5.1.1 <the visitor's address>: Recipient address rejected: User unknown",
    });
    expect(JSON.stringify(composeAlert(alert!))).not.toMatch(/amina@/i);
  });

  it('claims an alert of requests without a client address as the database leaves it', async () => {
    await harness.db.query(`insert into app_private.messages (kind) values ('no_client_address')`);
    const alert = await createAlertStore(harness.db).claimNext(60_000);
    expect(alert).toMatchObject({ kind: 'no_client_address', details: null });
  });
});

describe('composeAlert', () => {
  const received = '2026-11-24T14:02:00.000Z';
  const failing = (last_error: string, unsent: ChannelName[], index = 0) => ({
    booking_id: `${bookingId.slice(0, -1)}${index}`,
    received_at: received,
    attempts: 3,
    last_error,
    unsent,
  });
  const alert = (kind: PracticeAlert['kind'], details: unknown) =>
    ({ id: '7', kind, createdAt: new Date('2026-11-24T15:03:00Z'), details }) as PracticeAlert;

  it.each([
    'Message failed: 554 5.2.252 SendAsDenied; practice@example.com not allowed to send as bookings@example.com',
    'Mail command failed: 553 5.1.8 <bookings@example.com>: Sender address rejected: Domain not found',
  ])('names NOTIFY_FROM, not NOTIFY_TO, when the mail server refuses the sender: %s', (error) => {
    const { text } = composeAlert(
      alert('notification_failing', {
        after_minutes: 60,
        notifications: [failing(error, ['email'])],
      }),
    );
    expect(text).toContain('NOTIFY_FROM');
    expect(text).not.toContain('check NOTIFY_TO');
  });

  it.each([
    [
      "names NOTIFY_TO when the mail server refuses the practice's own address",
      alert('notification_failing', {
        after_minutes: 60,
        notifications: [
          failing(
            "Can't send mail - all recipients were rejected: 550 5.1.1 <an address>: Recipient address rejected (EENVELOPE)",
            ['email'],
          ),
        ],
      }),
      'A booking request has not reached you by e-mail',
      ['- The mail server refused the address the requests are sent to: check NOTIFY_TO,'],
    ],
    [
      'says how long one request has failed, with its attempts and error, and what to check for e-mail',
      alert('notification_failing', {
        after_minutes: 60,
        notifications: [
          failing('e-mail to practice@example.com: Invalid login: 535 Invalid username', ['email']),
        ],
      }),
      'A booking request has not reached you by e-mail',
      [
        `This booking request has not reached you by e-mail for more than an hour. It is retried until it gets through, but a reply was promised within ${practice.replyWithinHours} hours:\n\n  Ref 5F0C2A8E, received Tuesday 24 November 2026, 14:02 GMT, 3 attempts\n    e-mail to practice@example.com: Invalid login: 535 Invalid username`,
        'E-mail: check SMTP_URL',
      ],
    ],
    [
      'names the channel that fails and the setting to check, for several requests',
      alert('notification_failing', {
        after_minutes: 60,
        notifications: [1, 2].map((index) =>
          failing('webhook to https://hooks.test: the webhook answered 500', ['webhook'], index),
        ),
      }),
      '2 booking requests have not reached you through the webhook',
      ['the webhook answered 500', 'Webhook: check NOTIFY_WEBHOOK_URL'],
    ],
    [
      "names the refused acknowledgement's request and its time, says to phone, and quotes the mail server",
      alert('acknowledgement_refused', {
        booking_id: bookingId,
        received_at: received,
        smtp_reply: '550 5.1.1 User unknown',
      }),
      'Phone the visitor of request 5F0C2A8E: their e-mail address refused our confirmation',
      [
        "The confirmation to request 5F0C2A8E, received Tuesday 24 November 2026, 14:02 GMT, was refused by the visitor's mail server",
        'Phone them instead',
        '550 5.1.1 User unknown',
      ],
    ],
    [
      'says, of requests without a client address, what to check on the server and on hosted Supabase',
      alert('no_client_address', null),
      'Booking requests arrive without the visitor\u2019s address: check the proxy setting',
      [
        'the first at Tuesday 24 November 2026, 15:03 GMT',
        'TRUST_PROXY',
        'through Supabase\u2019s gateway',
      ],
    ],
  ])('%s', (_, practiceAlert, subject, fragments) => {
    const message = composeAlert(practiceAlert);
    expect(message.subject).toBe(subject);
    for (const fragment of fragments) expect(message.text).toContain(fragment);
  });

  it('lists the first of a flood of failing requests and counts the rest', () => {
    const notifications = Array.from({ length: 30_000 }, (_, index) =>
      failing('webhook to https://hooks.test: the webhook answered 500', ['webhook'], index),
    );
    const { subject, text } = composeAlert(
      alert('notification_failing', { after_minutes: 60, notifications }),
    );
    expect(subject).toBe('30,000 booking requests have not reached you through the webhook');
    expect(text.match(/^ {2}Ref /gm)).toHaveLength(messageListLimit);
    expect(text).toContain(
      '\n  \u2026 and 29,950 more: npx hijama list --since 2026-11-24 --limit all\n',
    );
  });
});

describe("an alert's Message-ID", () => {
  it('is the same at every attempt, and not that of the alert of the same number in another database', async () => {
    const peer = await startSmtpPeer();
    const channel = emailChannelTo(peer.port);
    const firstAlert = (createdAt: string): PracticeAlert => ({
      id: '1',
      kind: 'no_client_address',
      createdAt: new Date(createdAt),
      details: null,
    });
    try {
      await channel.sendAlert(firstAlert('2026-11-02T09:00:00Z'));
      await channel.sendAlert(firstAlert('2026-11-02T09:00:00Z')); // a retry
      // A new install's first alert, to the same inbox: Gmail keeps one message per Message-ID.
      await channel.sendAlert(firstAlert('2026-11-27T16:40:00Z'));
      const [sent, retried, another] = peer.mails.map((mail) => mail.parsed.messageId);
      expect(retried).toBe(sent);
      expect(another).not.toBe(sent);
    } finally {
      channel.close();
      await peer.close();
    }
  });
});
