import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseAnswerFragment } from '../../supabase/functions/_shared/core/answer-link.ts';
import { DatabaseError } from '../../supabase/functions/_shared/db/database.ts';
import { testEngines } from '../testing/helpers.ts';
import { useTestDatabase } from '../testing/test-database.ts';
import { forgedToken } from '../testing/answer-fixtures.ts';
import { startSmtpPeer, type SmtpPeer } from '../testing/notification-peers.ts';
import { createEmailChannel } from '../../supabase/functions/_shared/notifications/channels.ts';
import {
  createNotifier,
  type Notifier,
} from '../../supabase/functions/_shared/notifications/notifier.ts';
import { createOutbox } from '../../supabase/functions/_shared/notifications/outbox.ts';

/** SITE_URL of these tests: every link to the site must name it. */
const testSiteUrl = 'https://clinic.test/';

/**
 * The "Mark as answered" link of the booking e-mail, end to end: the e-mail a
 * real SMTP server receives carries a link whose token the database signed
 * when the notification was claimed, and which public.mark_booking_answered,
 * called as anon as the answer page calls it, accepts.
 */

describe.each(testEngines('answer-link'))('the "Mark as answered" link on $name', (engine) => {
  const database = useTestDatabase(engine);
  let peer: SmtpPeer;
  let notifier: Notifier;

  beforeEach(async () => {
    await database.db.query('delete from public.bookings');
    peer = await startSmtpPeer();
    notifier = createNotifier({
      siteUrl: testSiteUrl,
      outbox: createOutbox(database.db),
      channels: [
        createEmailChannel(
          {
            smtpUrl: `smtp://127.0.0.1:${peer.port}`,
            to: ['practice@example.com'],
            from: 'Rochester Hijama <bookings@rochester-hijama.example>',
          },
          testSiteUrl,
        ),
      ],
      pollIntervalMs: 60_000,
      retryBaseMs: 1000,
      retryMaxMs: 1000,
      exclusive: false,
      log: { info: () => {}, error: () => {} },
    });
  });

  afterEach(async () => {
    await notifier.stop();
    await peer.close();
  });

  /** Calls the function as the answer page does: as anon, through the API's role. */
  async function markAsAnon(token: string) {
    return database.db.transaction(async (tx) => {
      await tx.query('set local role anon');
      const { rows } = await tx.query<{ answer: { reference: string } }>(
        'select public.mark_booking_answered($1) as answer',
        [token],
      );
      return rows[0]!.answer;
    });
  }

  it('e-mails a link to the site whose token marks that request answered, as anon', async () => {
    const id = crypto.randomUUID();
    await database.db.query(
      `insert into public.bookings (id, full_name, phone, email, instagram)
       values ($1, 'Amina Khan', '07700 900123', 'amina@example.com', null)`,
      [id],
    );
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
    expect(text).toContain('Once you have answered:\nMark as answered: ');
    // The HTML button carries the same link.
    expect(mail.parsed.html).toContain(`href="${line}"`);

    const reference = id.replaceAll('-', '').slice(0, 8).toUpperCase();
    expect(await markAsAnon(parsed.token)).toMatchObject({ reference });
    const { rows } = await database.db.query<{ marked_by: string }>(
      'select marked_by from app_private.booking_answers where booking_id = $1',
      [id],
    );
    expect(rows).toEqual([{ marked_by: 'link' }]);
  });

  it('has a token no other request accepts: one changed character is refused', async () => {
    const id = crypto.randomUUID();
    await database.db.query(
      `insert into public.bookings (id, full_name, phone, email)
       values ($1, 'Jo Smith', '01634 123456', 'jo@example.com')`,
      [id],
    );
    await notifier.runOnce();
    const token = /#answer=(\S+)$/m.exec(peer.mails[0]!.parsed.text ?? '')![1]!;
    const refusal = await markAsAnon(forgedToken(token)).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DatabaseError);
    expect((refusal as DatabaseError).code).toBe('PT403');
  });
});
