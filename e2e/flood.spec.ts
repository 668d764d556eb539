import { expect, test, type Page } from '@playwright/test';
import { developmentAnonKey } from '../supabase/functions/_shared/core/api-defaults.ts';
import { bookingFields } from '../supabase/functions/_shared/core/booking-rules.ts';
import { startBuiltServer, type RunningServer } from '../scripts/lib/built-server.ts';
import { site } from '../src/content/site.ts';
import {
  accessibilityViolations,
  holdBack,
  loadPage,
  policyViolations,
  storedBookings,
  untilInteractive,
} from './fixtures.ts';

/**
 * A booking while the site is flooded: a server of its own, whose threshold
 * (one request an hour) these tests pass first, so that every booking after
 * needs a proof of work, which the form computes by itself.
 */

const copy = site.bookingForm;
const anonHeaders = {
  apikey: developmentAnonKey,
  Authorization: `Bearer ${developmentAnonKey}`,
  'Content-Type': 'application/json',
};

let server: RunningServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startBuiltServer({
    RATE_LIMIT_PER_MINUTE: '0',
    BOOKING_LIMIT_PER_CLIENT_PER_HOUR: '0',
    BOOKING_LIMIT_PER_EMAIL_PER_HOUR: '0',
    BOOKING_LIMIT_SITE_PER_HOUR: '1',
  });
  // The first request of the hour is taken as always; the next one needs a proof.
  expect((await postBooking(uniqueEmail('opening'))).status).toBe(201);
  expect((await postBooking(uniqueEmail('flooding'))).status).toBe(428);
});

test.afterAll(async () => {
  await server?.stop();
});

function uniqueEmail(label: string): string {
  return `flood-${label}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.com`;
}

function postBooking(email: string) {
  return fetch(`${server.url}/rest/v1/bookings`, {
    method: 'POST',
    headers: anonHeaders,
    body: JSON.stringify({
      id: crypto.randomUUID(),
      full_name: 'Flood Test',
      phone: '07700 900123',
      email,
    }),
  });
}

const storedRows = (email: string) => storedBookings(email, 'id,email', server.dataDir);

async function openBookingForm(page: Page) {
  await loadPage(page, `${server.url}/#contact`);
  await expect(page.locator('main h1')).toBeVisible();
  await untilInteractive(page);
}

async function fillForm(page: Page, email: string) {
  const values = { fullName: 'Maryam Ali', phone: '07700 900 456', email, instagram: '' };
  for (const field of bookingFields) await page.getByLabel(copy.labels[field]).fill(values[field]);
}

/** The API calls the page makes, as "METHOD path status", in the order they are answered. */
function apiCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith('/rest/v1/'))
      calls.push(`${response.request().method()} ${pathname} ${response.status()}`);
  });
  return calls;
}

test('during a flood the form proves its work by itself: the visitor sees only "Submitting..." and then the thanks', async ({
  page,
}) => {
  const violations = policyViolations(page);
  const calls = apiCalls(page);
  let proofSent: string | undefined;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/rest/v1/bookings'))
      proofSent = request.headers()['x-booking-proof'] ?? proofSent;
  });
  // The challenge is held back a moment, so the page can be seen while it works.
  const challenge = await holdBack(page, '**/rest/v1/rpc/booking_challenge');

  const email = uniqueEmail('visitor');
  await openBookingForm(page);
  await fillForm(page, email);
  await page.getByRole('button', { name: copy.submit }).click();

  await expect.poll(() => calls).toContain('POST /rest/v1/bookings 428');
  await expect(page.getByRole('button', { name: copy.submitting })).toBeDisabled();
  await expect(page.getByRole('alert')).toHaveCount(0);
  challenge.release();

  await expect(page.getByRole('dialog', { name: copy.success.title })).toBeVisible({
    timeout: 20_000,
  });
  expect(calls).toEqual([
    'POST /rest/v1/bookings 428',
    'POST /rest/v1/rpc/booking_challenge 200',
    'POST /rest/v1/bookings 201',
  ]);
  expect(proofSent).toMatch(/^[A-Za-z0-9+/]+=*$/);
  expect(await storedRows(email)).toHaveLength(1);
  expect(violations).toEqual([]);
  expect(await accessibilityViolations(page)).toEqual([]);
});

test('when no challenge can be had, the visitor gets the form’s failure message', async ({
  page,
}) => {
  await page.route('**/rest/v1/rpc/booking_challenge', (route) => route.abort());
  const email = uniqueEmail('unsolved');
  await openBookingForm(page);
  await fillForm(page, email);
  await page.getByRole('button', { name: copy.submit }).click();
  await expect(page.getByRole('alert')).toHaveText(copy.failure);
  await expect(page.getByLabel(copy.labels.email)).toHaveValue(email);
  expect(await storedRows(email)).toEqual([]);
});
