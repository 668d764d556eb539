import { expect, test, type Page } from '@playwright/test';
import {
  composeBookingEmail,
  markAnsweredActions,
  replyActions,
} from '../supabase/functions/_shared/notifications/booking-notice.ts';
import { sampleNotice, testSiteUrl, withAnswerToken } from '../server/testing/notice-samples.ts';
import { accessibilityViolations } from './fixtures.ts';

// The practitioner's e-mail, as a phone shows it. It needs no server: the
// HTML is composed here and loaded as it is, without a style sheet, as mail
// clients do.

const notice = withAnswerToken(
  sampleNotice({
    createdAt: new Date('2026-11-23T18:40:00Z'),
    phone: '+44 (0) 7700 900 123',
    email: 'amina.khan@example.com',
    instagram: 'amina.k',
  }),
);

async function showOnPhone(page: Page, html: string) {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.setContent(html);
}

test('every way to answer is a tap target at least 44 px high, within a 375 px screen, and the e-mail has no axe violations, nor widens for a long name or address without spaces', async ({
  page,
}) => {
  await showOnPhone(page, composeBookingEmail(notice, testSiteUrl).html);
  // A UK mobile and an Instagram handle: all six ways (Instagram message and
  // profile, e-mail, call, WhatsApp, text message), then the answered link;
  // where each leads is composeBookingEmail's to check (booking-notice.test.ts).
  const actions = [...replyActions(notice), ...markAnsweredActions(notice, testSiteUrl)];
  expect(actions).toHaveLength(7);
  for (const { label } of actions) {
    const link = page.getByRole('link', { name: label, exact: true });
    const box = (await link.boundingBox())!;
    expect(box.height, label).toBeGreaterThanOrEqual(44);
    expect(box.width, label).toBeGreaterThanOrEqual(44);
    expect(box.x + box.width, label).toBeLessThanOrEqual(375);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  // A mail client shows the e-mail inside its own page, which has the landmarks.
  const pageRules = ['landmark-one-main', 'region'];
  const violations = await accessibilityViolations(page);
  expect(
    violations.filter((violation) => !pageRules.includes(violation.id)),
    'axe violations, colour contrast included',
  ).toEqual([]);

  // A long name or address without spaces wraps instead of widening the e-mail.
  await showOnPhone(
    page,
    composeBookingEmail(
      {
        ...notice,
        fullName: 'Averylongnamewithoutanyspace'.repeat(3),
        email: `${'averylongaddress'.repeat(4)}@example.com`,
      },
      testSiteUrl,
    ).html,
  );
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});
