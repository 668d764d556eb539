import { everyLimitLifted } from '../server/limits/limits-config.ts';
import { expect, test, type Page } from '@playwright/test';
import { startBuiltServer, type RunningServer } from '../scripts/lib/built-server.ts';
import { site } from '../src/content/site.ts';
import {
  accessibilityViolations,
  apiCalls,
  bookingPosts,
  fillBookingForm,
  holdBack,
  openView,
  policyViolations,
  postBooking,
  scriptFile,
  storedBookings,
  thankYou,
  uniqueEmail,
} from './fixtures.ts';

/**
 * A booking while the site is flooded: a server of its own, whose threshold
 * (one request an hour) these tests pass first, so that every booking after
 * needs a proof of work, which the form computes by itself.
 */

const copy = site.bookingForm;

let server: RunningServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  // A hook has the test's 30 s; startBuiltServer gives a server a minute to
  // answer, which a busy machine may take.
  test.setTimeout(90_000);
  server = await startBuiltServer({ ...everyLimitLifted, BOOKING_LIMIT_SITE_PER_HOUR: '1' });
  // The first request of the hour is taken as always; the next one needs a proof.
  const post = (label: string) => postBooking(server.url, { email: uniqueEmail(`flood-${label}`) });
  expect((await post('opening')).status).toBe(201);
  expect((await post('flooding')).status).toBe(428);
});

test.afterAll(async () => {
  await server?.stop();
});

const storedRows = (email: string) => storedBookings(email, 'id,email', server.dataDir);

/** The booking form filled in, as a visitor during a flood would. */
const fillForm = (page: Page, email: string) =>
  fillBookingForm(page, { fullName: 'Maryam Ali', phone: '07700 900 456', email, instagram: '' });

test('during a flood the form proves its work by itself: the visitor sees only "Submitting..." and then the thanks', async ({
  page,
}) => {
  const violations = policyViolations(page);
  const calls = apiCalls(page);
  const posts = bookingPosts(page);
  // The challenge is held back a moment, so the page can be seen while it works.
  const challenge = await holdBack(page, '**/rest/v1/rpc/booking_challenge');

  const email = uniqueEmail('flood-visitor');
  await openView(page, 'contact', server.url);
  await fillForm(page, email);
  await page.getByRole('button', { name: copy.submit }).click();

  await expect.poll(() => calls).toContain('POST /rest/v1/bookings 428');
  await expect(page.getByRole('button', { name: copy.submitting })).toBeDisabled();
  await expect(page.getByRole('alert')).toHaveCount(0);
  challenge.release();

  await expect(thankYou(page)).toBeVisible({ timeout: 20_000 });
  expect(calls).toEqual([
    'POST /rest/v1/bookings 428',
    'POST /rest/v1/rpc/booking_challenge 200',
    'POST /rest/v1/bookings 201',
  ]);
  // The second, with the proof of work the first was asked for.
  expect(posts[1]!.headers()['x-booking-proof']).toMatch(/^[A-Za-z0-9+/]+=*$/);
  expect(await storedRows(email)).toHaveLength(1);
  expect(violations).toEqual([]);
  expect(await accessibilityViolations(page)).toEqual([]);
});

for (const { what, route, message } of [
  {
    what: 'when no challenge can be had, the visitor gets the form’s failure message',
    route: (page: Page) => page.route('**/rest/v1/rpc/booking_challenge', (route) => route.abort()),
    message: copy.failure,
  },
  {
    what: 'a page older than the site, whose proof-of-work code is gone, says to reload',
    // As after an update of the site: the page's own file names are no longer served.
    route: (page: Page) =>
      page.route(scriptFile('proof-of-work-solver'), (route) => route.fulfill({ status: 404 })),
    message: copy.outdated,
  },
  {
    what: 'a page whose REST client did not come, the connection having dropped as the booking view opened, says to reload',
    route: (page: Page) => page.route(scriptFile('rest-client'), (route) => route.abort()),
    message: copy.outdated,
  },
]) {
  test(`${what}, keeping what was typed`, async ({ page }) => {
    await route(page);
    const email = uniqueEmail('flood-unsolved');
    await openView(page, 'contact', server.url);
    await fillForm(page, email);
    await page.getByRole('button', { name: copy.submit }).click();
    await expect(page.getByRole('alert')).toHaveText(message);
    await expect(page.getByLabel(copy.labels.email)).toHaveValue(email);
    expect(await storedRows(email)).toEqual([]);
  });
}
