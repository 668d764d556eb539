import { describe, expect, it } from 'vitest';
import { parseAnswerFragment } from '../../supabase/functions/_shared/core/answer-link.ts';
import { shortReference } from '../../supabase/functions/_shared/core/booking-reference.ts';
import { callApiFunction } from '../../supabase/functions/_shared/db/api-function.ts';
import { testEngines } from '../testing/helpers.ts';
import { storeWaitingRequest } from '../testing/answer-fixtures.ts';
import { emailChannelTo, testSiteUrl } from '../testing/notification-peers.ts';
import { useNotifierHarness } from '../testing/notifier-harness.ts';

/**
 * The "Mark as answered" link of the booking e-mail, end to end: the e-mail a
 * real SMTP server receives carries a link whose token the database signed
 * when the notification was claimed, and which public.mark_booking_answered,
 * called as anon as the answer page calls it, accepts. Which tokens it refuses
 * is the database's (supabase/functions/_shared/db/booking-answers.test.ts).
 */

describe.each(testEngines('answer-link'))('the "Mark as answered" link on $name', (engine) => {
  const harness = useNotifierHarness(engine, []);

  it('e-mails a link to the site whose token marks that request answered, as anon', async () => {
    const peer = await harness.smtpPeer();
    const notifier = harness.startNotifier([emailChannelTo(peer.port)], { start: false });
    const id = await storeWaitingRequest(harness.db);
    expect(await notifier.runOnce()).toEqual({ sent: 1, failed: 0 });

    const mail = peer.mails[0]!;
    const text = mail.parsed.text ?? '';
    const line = /^Mark as answered: (\S+)$/m.exec(text)?.[1];
    expect(line).toBeDefined();
    const link = new URL(line!);
    expect(`${link.origin}${link.pathname}`).toBe(testSiteUrl);
    const parsed = parseAnswerFragment(link.hash.slice(1))!;
    expect(parsed.bookingId).toBe(id);
    expect(parsed.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3_600_000);
    // The HTML button carries the same link.
    expect(mail.parsed.html).toContain(`href="${line}"`);

    const answer = await callApiFunction<{ reference: string }>(
      harness.db,
      'public.mark_booking_answered($1)',
      [parsed.token],
    );
    expect(answer.reference).toBe(shortReference(id));
    const { rows } = await harness.db.query<{ marked_by: string }>(
      'select marked_by from app_private.booking_answers where booking_id = $1',
      [id],
    );
    expect(rows).toEqual([{ marked_by: 'link' }]);
  });
});
