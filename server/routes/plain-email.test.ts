import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneInbox, oneInboxSpellings } from '../testing/email-examples.ts';
import { practice } from '../../supabase/functions/_shared/content/practice.ts';
import { loadNotifyConfig } from '../../supabase/functions/_shared/notifications/notify-config.ts';
import { createConfiguredNotifier } from '../../supabase/functions/_shared/notifications/setup.ts';
import { useTestApp } from '../testing/test-database.ts';
import { testEngines } from '../testing/helpers.ts';
import { postBooking } from '../testing/booking-samples.ts';
import { startSmtpPeer, type SmtpPeer } from '../testing/notification-peers.ts';

/**
 * No form becomes a mail relay: of the spellings a mail library reads as one
 * inbox, the booking API takes only the bare address, and the acknowledgement
 * reaches that inbox once, addressed to the address alone.
 */

const practiceInbox = 'practice@rochester-hijama.example';

describe.each(testEngines('plain-email'))('the booking API on $name', (engine) => {
  const opened = useTestApp(engine);
  let peer: SmtpPeer;

  beforeAll(async () => {
    peer = await startSmtpPeer();
  });

  afterAll(async () => {
    await peer?.close();
  });

  // Which spellings the rule takes (the bare address, three times here) is
  // core's and the database's: booking-rules.test.ts, field-rules-sql.test.ts.
  it('acknowledges the inbox of every spelling sent once, addressed to the bare address alone', async () => {
    for (const email of oneInboxSpellings) await postBooking(opened.baseUrl, { email });

    const config = loadNotifyConfig({
      SMTP_URL: `smtp://127.0.0.1:${peer.port}`,
      NOTIFY_TO: practiceInbox,
      NOTIFY_FROM: `${practice.name} <bookings@rochester-hijama.example>`,
    })!;
    const { notifier } = createConfiguredNotifier(opened.db, config, {
      info: () => {},
      error: () => {},
    });
    try {
      await notifier.runOnce();
    } finally {
      await notifier.stop();
    }

    const toVisitors = peer.mails.filter((mail) => !mail.to.includes(practiceInbox));
    // The first request's, as typed but for the domain's case.
    expect(toVisitors.map((mail) => mail.to)).toEqual([['V@t.test']]);
    expect(toVisitors[0]!.to[0]!.toLowerCase()).toBe(oneInbox);
    // The header holds the address alone: no name, comment or list the visitor typed.
    expect(toVisitors[0]!.raw).toMatch(/^To: V@t\.test\r?$/m);
    // Every request taken, and only those, still reaches the practice.
    expect(peer.mails.filter((mail) => mail.to.includes(practiceInbox))).toHaveLength(3);
  });
});
