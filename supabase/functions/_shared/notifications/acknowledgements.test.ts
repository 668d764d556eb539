import { describe, expect, it } from 'vitest';
import { shortReference } from '../core/booking-reference.ts';
import { practice } from '../content/practice.ts';
import * as visitorEmails from '../content/visitor-emails.ts';
import { storeWaitingRequest } from '../../../../server/testing/answer-fixtures.ts';
import { testEngines } from '../../../../server/testing/helpers.ts';
import { type ReceivedMail, type SmtpPeer } from '../../../../server/testing/notification-peers.ts';
import { useNotifierHarness } from '../../../../server/testing/notifier-harness.ts';
import { loadNotifyConfig } from './notify-config.ts';
import { createConfiguredNotifier } from './setup.ts';

/**
 * The acknowledgement to the visitor (NOTIFY_ACKNOWLEDGE), sent by the
 * notifier as the server and the Edge Function build it, against a real
 * database and a real SMTP server: at most 20 an hour, from the practice, and
 * a refused address reported to the practice. One to an address in 24 hours
 * is the database's rule (server/db/reminder-and-acknowledgement-claims.test.ts).
 */

const practiceInbox = 'practice@rochester-hijama.example';
const practiceSender = 'bookings@rochester-hijama.example';

describe.each(testEngines('acknowledgements'))('acknowledgements on $name', (engine) => {
  const harness = useNotifierHarness(engine, ['messages']);
  const { errors, smtpPeer } = harness;

  /** The notifier of the server's settings, sending through the SMTP server on `port`, retrying after 1 ms. */
  function notifierOn(port: number, env: Record<string, string> = {}) {
    const config = loadNotifyConfig({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      NOTIFY_TO: practiceInbox,
      NOTIFY_FROM: `${practice.name} <${practiceSender}>`,
      NOTIFY_RETRY_SECONDS: '0.001',
      NOTIFY_RETRY_MAX_SECONDS: '0.001',
      ...env,
    })!;
    const { notifier } = createConfiguredNotifier(harness.db, config, {
      info: () => {},
      error: (message) => errors.push(message),
    });
    harness.afterTest(() => notifier.stop());
    return notifier;
  }

  const store = (email: string, created_at?: string) =>
    storeWaitingRequest(harness.db, {
      email,
      full_name: 'Amina Khan',
      phone: '07700 900 456',
      instagram: 'amina.k',
      ...(created_at ? { created_at } : {}),
    });

  const toVisitors = (peer: SmtpPeer) =>
    peer.mails.filter((mail) => !mail.to.includes(practiceInbox));
  const toPractice = (peer: SmtpPeer) =>
    peer.mails.filter((mail) => mail.to.includes(practiceInbox));

  async function states() {
    const { rows } = await harness.db.query<{ booking_id: string; state: string }>(
      `select booking_id::text, coalesce(outcome, 'sending') as state
         from app_private.messages where kind = 'acknowledgement'`,
    );
    return Object.fromEntries(rows.map((row) => [row.booking_id, row.state]));
  }

  it('sends at most 20 in an hour in all, and records the rest limited', async () => {
    const peer = await smtpPeer();
    const ids: string[] = [];
    // A second apart: PGlite's clock counts milliseconds, and requests stored
    // in one would tie, their order then the ids'.
    const firstAt = Date.now() - 60_000;
    for (let index = 0; index < 25; index += 1) {
      const createdAt = new Date(firstAt + index * 1000).toISOString();
      ids.push(await store(`visitor${index}@example.com`, createdAt));
    }
    // The practice has heard of them: only the acknowledgements are left to send.
    await harness.db.query(
      `update app_private.messages set attempts = 1, email_sent_at = now(), done_at = now(), outcome = 'sent'
        where kind = 'notification'`,
    );
    const notifier = notifierOn(peer.port);

    await notifier.runOnce();
    await notifier.runOnce();

    expect(toVisitors(peer)).toHaveLength(20);
    // The oldest requests had theirs.
    expect(await states()).toEqual(
      Object.fromEntries(ids.map((id, index) => [id, index < 20 ? 'sent' : 'limited'])),
    );
  });

  it("is sent from the practice's address, answered to its inbox, with its bounces to the practice", async () => {
    const peer = await smtpPeer();
    const id = await store('amina@example.com');
    await notifierOn(peer.port).runOnce();

    const [mail] = toVisitors(peer) as [ReceivedMail];
    expect(mail.to).toEqual(['amina@example.com']);
    // The envelope sender, where a later bounce goes.
    expect(mail.from).toBe(practiceSender);
    expect(mail.parsed.from).toEqual({ name: practice.name, address: practiceSender });
    expect(mail.parsed.replyTo).toEqual([{ name: '', address: practiceInbox }]);
    expect(mail.parsed.messageId).toBe(`<acknowledgement-${id}@rochester-hijama.example>`);
    expect(mail.parsed.text).toContain(visitorEmails.acknowledgement.greeting('Amina'));
    // Nothing else the visitor typed.
    for (const body of [mail.parsed.text!, mail.parsed.html!]) {
      for (const typed of ['Khan', '900 456', '900456', 'amina.k', 'amina@example.com']) {
        expect(body).not.toContain(typed);
      }
    }
  });

  it('marks a refused address and tells the practice to phone instead', async () => {
    const peer = await smtpPeer({ rejectRecipients: ['nobody@example.com'] });
    // Typed with capitals: the server compares addresses without them.
    const id = await store('Nobody@Example.com');
    const notifier = notifierOn(peer.port);

    await notifier.runOnce();
    expect(await states()).toEqual({ [id]: 'refused' });

    // The alert goes out at the next run, as every alert: one, of this request.
    await notifier.runOnce();
    const alerts = toPractice(peer).filter((mail) => mail.parsed.subject?.startsWith('Phone'));
    expect(alerts.map((alert) => alert.parsed.subject)).toEqual([
      `Phone the visitor of request ${shortReference(id)}: their e-mail address refused our confirmation`,
    ]);
    expect(alerts[0]!.parsed.text).toContain(
      "550 5.1.1 <the visitor's address>: Recipient address rejected: User unknown",
    );
    expect(alerts[0]!.parsed.text).not.toMatch(/nobody@example\.com/i);
    expect(toVisitors(peer)).toEqual([]);
    // Nor the log: the server's, or the function's on hosted Supabase.
    expect(errors).toContainEqual(
      expect.stringMatching(/refused by the visitor's mail server \(550/),
    );
    expect(errors.join('\n')).not.toMatch(/nobody@example\.com/i);
  });

  it("retries, telling no one to phone, when the practice's own server will not relay to the visitor", async () => {
    const peer = await smtpPeer({
      rejectRecipients: ['amina@example.com'],
      refusal: { code: 554, text: '5.7.1 <amina@example.com>: Relay access denied' },
    });
    const id = await store('amina@example.com');
    const notifier = notifierOn(peer.port);

    await notifier.runOnce();
    await notifier.runOnce();
    expect(await states()).toEqual({ [id]: 'sending' });
    expect(toPractice(peer).map((mail) => mail.parsed.subject)).toEqual([
      'Booking request from Amina Khan',
    ]);
    expect(errors).toContainEqual(expect.stringMatching(/Relay access denied/));
  });

  it('sends none with NOTIFY_ACKNOWLEDGE=off', async () => {
    const peer = await smtpPeer();
    await store('amina@example.com');
    await notifierOn(peer.port, { NOTIFY_ACKNOWLEDGE: 'off' }).runOnce();

    expect(toPractice(peer)).toHaveLength(1);
    expect(toVisitors(peer)).toEqual([]);
    expect(await states()).toEqual({});
  });
});
