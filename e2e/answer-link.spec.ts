import { answerTokenFor, forgedToken } from '../server/testing/answer-fixtures.ts';
import { everyLimitLifted } from '../server/limits/limits-config.ts';
import { expect, test, type Page } from '@playwright/test';
import { answerLink } from '../supabase/functions/_shared/core/answer-link.ts';
import { shortReference } from '../supabase/functions/_shared/core/booking-reference.ts';
import { startBuiltServer, type RunningServer } from '../scripts/lib/built-server.ts';
import {
  createScratchDatabase,
  withClient,
  type ScratchDatabase,
} from '../server/testing/helpers.ts';
import { openPostgres } from '../supabase/functions/_shared/db/postgres.ts';
import { composeDailySummary } from '../supabase/functions/_shared/notifications/daily-summary.ts';
import { createNotificationStates } from '../supabase/functions/_shared/notifications/notification-states.ts';
import { formatAnsweredAt } from '../src/answer/answer-outcome.ts';
import { site } from '../src/content/site.ts';
import {
  accessibilityViolations,
  apiCalls,
  expectViewShown,
  loadPage,
  postBooking,
  untilInteractive,
} from './fixtures.ts';

/**
 * The "Mark as answered" link of a booking e-mail, opened in the browser: a
 * server of its own on a scratch PostgreSQL database, so that the tests make
 * tokens as the notifier does (app_private.answer_token, as the owner) and
 * read in SQL whether the request is still waiting.
 */

const copy = site.answerPage;
const adminUrl =
  process.env.TEST_DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/postgres';

let database: ScratchDatabase;
let server: RunningServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  database = await createScratchDatabase(adminUrl);
  server = await startBuiltServer({ DATABASE_URL: database.url, ...everyLimitLifted });
});

test.afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

function sql<Row>(query: string, values: unknown[] = []): Promise<Row[]> {
  return withClient(database.url, async (client) => (await client.query(query, values)).rows);
}

/** Stores a booking request as the form does, and gives its id. */
async function storeBooking(): Promise<string> {
  const id = crypto.randomUUID();
  const response = await postBooking(server.url, { id, email: `answer-${id}@example.com` });
  expect(response.status).toBe(201);
  return id;
}

/** The token of the booking's answer link, as the notifier makes it. */
const answerToken = (bookingId: string, validFor?: string) =>
  withClient(database.url, (client) => answerTokenFor(client, bookingId, validFor));

/** When the request was marked answered, or undefined while it is waiting. */
async function answeredAt(bookingId: string): Promise<Date | undefined> {
  const rows = await sql<{ answered_at: Date }>(
    'select answered_at from app_private.booking_answers where booking_id = $1',
    [bookingId],
  );
  return rows[0]?.answered_at;
}

/**
 * Opens the answer page as a new page load and waits until it answers to
 * clicks, recording before every frame which view <main> shows unhidden.
 */
async function openAnswerPage(page: Page, fragment: string): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { viewsShown: string[] }).viewsShown = seen;
    const look = () => {
      const main = document.getElementById('main');
      const pending = document.documentElement.hasAttribute('data-view-pending');
      if (main && !pending) seen.push(main.getAttribute('data-view') ?? '');
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  await loadPage(page, `${server.url}/${fragment}`);
  await expect(page.getByRole('heading', { level: 1, name: copy.heading })).toBeVisible();
  await untilInteractive(page);
  await expectViewShown(page, 'answer');
}

/** The views painted before and while the answer page was open: only it, never home or Coming Soon. */
async function viewsShown(page: Page): Promise<string[]> {
  return page.evaluate(() => [
    ...new Set((window as unknown as { viewsShown: string[] }).viewsShown),
  ]);
}

const markButton = (page: Page) => page.getByRole('button', { name: copy.button });
const undoButton = (page: Page) => page.getByRole('button', { name: copy.undo });

test('opening the link changes nothing; its button marks the request, a second tap is harmless, and Undo takes the mark back until marked again', async ({
  page,
}) => {
  // Four axe scans and three full-page screenshots: past 30 s on a loaded two-core machine.
  test.slow();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.setViewportSize({ width: 375, height: 812 });
  const bookingId = await storeBooking();
  const link = answerLink(server.url, await answerToken(bookingId));
  const calls = apiCalls(page);

  await openAnswerPage(page, link.slice(server.url.length + 1));
  await expect(page.getByText(copy.reference(shortReference(bookingId)))).toBeVisible();
  await expect(markButton(page)).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(calls).toEqual([]);
  expect(await answeredAt(bookingId)).toBeUndefined();
  expect(await viewsShown(page)).toEqual(['answer']);
  await expect(page.locator('head meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  expect(await accessibilityViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/answer-link-375-waiting.png', fullPage: true });

  await markButton(page).click();
  await expect(page.getByText(copy.answeredHeading)).toBeVisible();
  const marked = await answeredAt(bookingId);
  expect(marked).toBeInstanceOf(Date);
  const shownTime = copy.answeredAt(formatAnsweredAt(marked!, site.locale, site.timeZone));
  await expect(page.getByText(shownTime)).toBeVisible();
  expect(calls).toEqual(['POST /rest/v1/rpc/mark_booking_answered 200']);
  expect(await accessibilityViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/answer-link-375-answered.png', fullPage: true });

  // The link opened again and tapped again: the same answer, the first time kept.
  await openAnswerPage(page, link.slice(server.url.length + 1));
  await markButton(page).click();
  await expect(page.getByText(shownTime)).toBeVisible();
  expect(await answeredAt(bookingId)).toEqual(marked);

  // Undo takes the mark back: the request waits again, and can be marked again.
  await undoButton(page).click();
  await expect(page.getByText(copy.unmarkedHeading)).toBeVisible();
  await expect(page.getByText(copy.unmarked)).toBeVisible();
  expect(await answeredAt(bookingId)).toBeUndefined();
  expect(await accessibilityViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/answer-link-375-undone.png', fullPage: true });

  await markButton(page).click();
  await expect(page.getByText(copy.answeredHeading)).toBeVisible();
  expect(await answeredAt(bookingId)).toBeInstanceOf(Date);
  expect(calls).toEqual([
    'POST /rest/v1/rpc/mark_booking_answered 200',
    'POST /rest/v1/rpc/mark_booking_answered 200',
    'POST /rest/v1/rpc/unmark_booking_answered 200',
    'POST /rest/v1/rpc/mark_booking_answered 200',
  ]);
});

/** Tokens the database refuses, each made for a stored request, and what the page then says. */
const refusedTokens = [
  {
    what: 'a forged token is refused, saying what to do',
    shown: 'invalid',
    tokenFor: async (bookingId: string) => forgedToken(await answerToken(bookingId)),
    says: (bookingId: string) => copy.invalid(shortReference(bookingId)),
  },
  {
    what: 'an expired link says so',
    shown: 'expired',
    tokenFor: (bookingId: string) => answerToken(bookingId, '-1 minute'),
    says: (bookingId: string) => copy.expired(shortReference(bookingId)),
  },
  {
    what: 'the link of a request deleted since says it is no longer stored',
    shown: 'not-stored',
    tokenFor: async (bookingId: string) => {
      const token = await answerToken(bookingId);
      await sql('delete from public.bookings where id = $1', [bookingId]);
      return token;
    },
    says: () => copy.notStored,
  },
];

for (const { what, shown, tokenFor, says } of refusedTokens) {
  test(`${what}, and changes nothing`, async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize({ width: 375, height: 812 });
    const bookingId = await storeBooking();
    await openAnswerPage(page, `#answer=${await tokenFor(bookingId)}`);
    await markButton(page).click();
    await expect(page.getByText(says(bookingId))).toBeVisible();
    await expect(markButton(page)).toHaveCount(0);
    expect(await answeredAt(bookingId)).toBeUndefined();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: `test-results/answer-link-375-${shown}.png`, fullPage: true });
  });
}

test('a lost connection says to try again, and trying again marks it, or undoes it', async ({
  page,
}) => {
  const bookingId = await storeBooking();
  await openAnswerPage(page, `#answer=${await answerToken(bookingId)}`);
  await page.route('**/rest/v1/rpc/**', (route) => route.abort('internetdisconnected'));
  await markButton(page).click();
  await expect(page.getByText(copy.failed)).toBeVisible();
  expect(await answeredAt(bookingId)).toBeUndefined();

  await page.unroute('**/rest/v1/rpc/**');
  await markButton(page).click();
  await expect(page.getByText(copy.answeredHeading)).toBeVisible();
  expect(await answeredAt(bookingId)).toBeInstanceOf(Date);

  // An Undo that does not go through leaves it answered: what is offered again is Undo.
  await page.route('**/rest/v1/rpc/**', (route) => route.abort('internetdisconnected'));
  await undoButton(page).click();
  await expect(page.getByText(copy.failed)).toBeVisible();
  await expect(markButton(page)).toHaveCount(0);
  await page.unroute('**/rest/v1/rpc/**');
  await undoButton(page).click();
  await expect(page.getByText(copy.unmarkedHeading)).toBeVisible();
  expect(await answeredAt(bookingId)).toBeUndefined();
});

test('a link cut short is refused at once, without asking the server', async ({ page }) => {
  const calls = apiCalls(page);
  await openAnswerPage(page, '#answer=5f0c2a8e-2f4b');
  await expect(page.getByText(copy.invalid(undefined))).toBeVisible();
  await expect(markButton(page)).toHaveCount(0);
  expect(await viewsShown(page)).toEqual(['answer']);
  await page.waitForLoadState('networkidle');
  expect(calls).toEqual([]);
  expect(await accessibilityViolations(page)).toEqual([]);
});

test("the daily summary's e-mail, on a 390 px phone, marks each waiting request from its own link", async ({
  page,
}) => {
  const ids = [await storeBooking(), await storeBooking()];
  const db = await openPostgres(database.url);
  let html: string;
  let waitingIds: string[];
  try {
    const states = createNotificationStates(db);
    const now = new Date(Date.now() + 1_000);
    // Its own two: those the file's earlier tests left waiting would each add a
    // page load to the loop below, and no case.
    const waiting = (await states.waiting(now)).filter((notice) => ids.includes(notice.id));
    waitingIds = waiting.map((notice) => notice.id);
    html = composeDailySummary({
      day: '2026-11-27',
      now,
      at: { hour: 7, minute: 0 },
      requests: await states.requestsBetween(new Date(now.getTime() - 86_400_000), now),
      failing: [],
      waiting,
      replies: [],
      retention: { kind: 'off' },
      siteUrl: 'https://clinic.test/',
      emailed: true,
    }).html;
  } finally {
    await db.close();
  }
  expect(waitingIds).toEqual(expect.arrayContaining(ids));

  await page.setViewportSize({ width: 390, height: 844 });
  await page.setContent(html);
  await page.screenshot({ path: 'test-results/daily-summary-390.png', fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const markLinks = page.getByRole('link', { name: 'Mark as answered', exact: true });
  await expect(markLinks).toHaveCount(waitingIds.length);
  const hrefs: string[] = [];
  for (let index = 0; index < waitingIds.length; index++) {
    const link = markLinks.nth(index);
    const box = (await link.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    hrefs.push((await link.getAttribute('href'))!);
  }

  // Each link, opened on this site (the e-mail's links name the practice's own), marks its request.
  for (const [index, href] of hrefs.entries()) {
    await openAnswerPage(page, new URL(href).hash);
    await markButton(page).click();
    await expect(page.getByText(copy.answeredHeading)).toBeVisible();
    expect(await answeredAt(waitingIds[index]!)).toBeInstanceOf(Date);
  }
});
