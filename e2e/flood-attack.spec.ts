import { expect, test } from '@playwright/test';
import { startBuiltServer, type RunningServer } from '../scripts/lib/built-server.ts';
import { practiceMailKind, sendFloodRequest } from '../server/testing/flood.ts';
import { queryRunningServer } from '../server/testing/helpers.ts';
import { startSmtpPeer, type SmtpPeer } from '../server/testing/notification-peers.ts';
import { site } from '../src/content/site.ts';
import { fillBookingForm, openView, thankYou } from './fixtures.ts';

/**
 * A flood as an attacker would send it, with the project's default limits,
 * through a trusted proxy on loopback that writes X-Forwarded-For: twelve /64s
 * of one home's /56, twelve IPv4 addresses up to their limit and twenty-five
 * more at three each, the flooder solving every proof of work it is asked for.
 * Afterwards a real visitor still books in Chromium, and the practice's inbox
 * holds the requests up to the threshold, one by one, and the rest in digests.
 */

const threshold = 20;
const practice = 'practice@example.com';

let server: RunningServer;
let inbox: SmtpPeer;

test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async () => {
  // A hook has the test's 30 s; startBuiltServer gives a server a minute to
  // answer, which a busy machine may take.
  test.setTimeout(90_000);
  inbox = await startSmtpPeer();
  server = await startBuiltServer({
    TRUST_PROXY: 'loopback',
    SMTP_URL: `smtp://127.0.0.1:${inbox.port}`,
    NOTIFY_TO: practice,
    NOTIFY_FROM: 'bookings@example.com',
    // Only what the flood causes reaches the inbox.
    NOTIFY_DAILY_SUMMARY_AT: 'off',
    BOOKING_LIMIT_SITE_PER_HOUR: String(threshold),
  });
});

test.afterAll(async () => {
  await server?.stop();
  await inbox?.close();
});

const floodRequest = (client: string, email: string) => sendFloodRequest(server.url, client, email);

async function storedEmails(): Promise<string[]> {
  const rows = await queryRunningServer<{ email: string }>(
    { DATA_DIR: server.dataDir },
    'select email from public.bookings',
  );
  return rows.map((row) => row.email);
}

test('a flood from many networks cannot turn a real visitor away, nor flood the inbox', async ({
  page,
}) => {
  // Twelve /64s of one /56: one network, five requests at most.
  for (let n = 0; n < 12; n += 1) {
    await floodRequest(`2001:db8:77:${(0x100 + n).toString(16)}::1`, `home${n}@flood.example`);
  }
  // Twelve IPv4 addresses up to their limit, and twenty-five more at three each,
  // four networks at a time.
  const senders = [
    ...Array.from({ length: 12 }, (_, i) => ({ client: `198.51.100.${i + 1}`, count: 5 })),
    ...Array.from({ length: 25 }, (_, i) => ({ client: `203.0.113.${i + 1}`, count: 3 })),
  ];
  for (let start = 0; start < senders.length; start += 4) {
    await Promise.all(
      senders.slice(start, start + 4).map(async ({ client, count }) => {
        for (let i = 0; i < count; i += 1) {
          expect(await floodRequest(client, `${client}.${i}@flood.example`)).toBe(201);
        }
      }),
    );
  }
  const flood = await storedEmails();
  expect(flood.filter((email) => email.startsWith('home')).length).toBeLessThanOrEqual(5);
  expect(flood.length).toBeGreaterThan(threshold * 5);

  // A real visitor, straight from the browser (no proxy in between: 127.0.0.1).
  await openView(page, 'contact', server.url);
  await fillBookingForm(page, {
    fullName: 'Maryam Ali',
    phone: '07700 900 456',
    email: 'maryam@example.com',
    instagram: '',
  });
  await page.getByRole('button', { name: site.bookingForm.submit }).click();
  await expect(thankYou(page)).toBeVisible({ timeout: 30_000 });
  expect(await storedEmails()).toContain('maryam@example.com');

  // The inbox: the requests up to the threshold one by one, the rest in a digest.
  const kindOf = (mail: SmtpPeer['mails'][number]) => practiceMailKind(mail, threshold);
  await expect
    .poll(() => inbox.mails.filter((mail) => kindOf(mail) === 'digest').length, {
      timeout: 30_000,
    })
    .toBeGreaterThanOrEqual(1);
  const kinds = inbox.mails.filter((mail) => mail.to.includes(practice)).map(kindOf);
  expect(kinds.filter((kind) => kind === 'booking')).toHaveLength(threshold);
  expect(kinds.filter((kind) => kind === 'alert')).toHaveLength(1);
  // Nothing else: the flood of about 150 requests cost the practice a few e-mails.
  expect(kinds.length).toBeLessThanOrEqual(threshold + 3);
  // Nor does it mail the addresses it typed: only the requests below the
  // threshold are acknowledged, each to its own address.
  const acknowledgements = inbox.mails.filter((mail) => !mail.to.includes(practice));
  expect(acknowledgements.length).toBeLessThanOrEqual(threshold);
});
