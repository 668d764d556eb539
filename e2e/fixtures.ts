import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type Request } from '@playwright/test';
import {
  appAdoptedAttribute,
  interactiveAttribute,
  mainElementId,
  viewAttribute,
  viewPendingAttribute,
} from '../src/boot/protocol.ts';
import { site } from '../src/content/site.ts';
import { queryRunningServer } from '../server/testing/helpers.ts';
import type { BookingField } from '../supabase/functions/_shared/core/booking-rules.ts';
import { e2eDataDir } from './constants.ts';
import { specifiedWords } from './specified-words.ts';

export const viewNames = ['home', 'benefits', 'testimonials', 'location', 'contact'] as const;

/** The main heading of each view, as the content file words it. */
export const viewHeadings = {
  home: site.home.hero.title,
  benefits: site.benefits.heading,
  testimonials: site.testimonials.heading,
  location: site.location.heading,
  contact: site.contact.heading,
} as const satisfies Record<(typeof viewNames)[number], string>;

/** A pattern that matches `text` as it is, for copy that holds . ? ( and the like. */
export function literally(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
}

/** The address of a view: its fragment, or none for home. */
export function viewPath(name: string): string {
  return name === 'home' ? '/' : `/#${name}`;
}

/**
 * Loads an address as a new page. From one address of the site to another
 * that differs only in its fragment, the browser would not load the page: the
 * script would switch the view in memory, and nothing of the loading (the
 * pre-rendered view, its files, its paints) would be tested.
 */
export async function loadPage(
  page: Page,
  path: string,
  { waitUntil = 'load' }: { waitUntil?: 'load' | 'domcontentloaded' } = {},
): Promise<void> {
  await page.goto('about:blank');
  await page.goto(path, { waitUntil });
}

/**
 * Opens a view by its fragment, as a new page (of the server at `origin`, or
 * the tests' own), and waits until its heading is there and the page answers
 * to clicks (the script starts after the first paint).
 */
export async function openView(page: Page, name: string, origin = ''): Promise<void> {
  await loadPage(page, origin + viewPath(name));
  await expect(page.locator('main h1')).toBeVisible();
  await untilInteractive(page);
}

/**
 * Waits for the page's first script to have run. Every page is pre-rendered
 * and visible before it; its links answer only after, and a send made before
 * it is held until the app comes (src/booking/form-before-app.ts).
 */
export async function untilInteractive(page: Page): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute(interactiveAttribute, '');
}

/**
 * Waits for the React app to have adopted the page. On the pre-rendered views
 * it comes at the visitor's first interaction (src/main.tsx): a key pressed
 * that does nothing on the page (Shift) brings it.
 */
export async function untilAppAdopted(page: Page): Promise<void> {
  await untilInteractive(page);
  await page.keyboard.press('Shift');
  await expect(page.locator('html')).toHaveAttribute(appAdoptedAttribute, '');
}

/** Whether the page's script has run (see `untilInteractive`). */
export function isInteractive(page: Page) {
  return page.locator(`html[${interactiveAttribute}]`);
}

/** Whether the view the address asks for is still to come (the page is hidden meanwhile). */
export function isViewPending(page: Page) {
  return page.locator(`html[${viewPendingAttribute}]`);
}

/** The view shown in <main>, as the page marks it. */
export async function expectViewShown(page: Page, view: string): Promise<void> {
  await expect(page.locator(`#${mainElementId}`)).toHaveAttribute(viewAttribute, view);
}

/**
 * Presses each key in turn, checking after each that focus stays on an
 * element inside `container` (a dialog that keeps it).
 */
export async function expectFocusKept(page: Page, container: string, keys: string[]) {
  for (const [step, key] of keys.entries()) {
    await page.keyboard.press(key);
    const inside = await page.evaluate(
      (selector) => Boolean(document.activeElement?.closest(selector)),
      container,
    );
    expect(inside, `focus inside ${container} after ${step + 1} key presses`).toBe(true);
  }
}

/** The side menu, once open. */
export function sideMenu(page: Page) {
  return page.getByRole('dialog', { name: site.chrome.menuTitle });
}

export async function openMenu(page: Page) {
  await page.getByRole('button', { name: site.chrome.openMenu }).click();
  // Wholly on screen, not only shown: while it slides in, its links are off
  // screen, and axe then takes them for skip links with no target.
  await expect(sideMenu(page)).toBeInViewport({ ratio: 1 });
}

/** axe-core's WCAG 2.2 A and AA rules plus its best practices. */
export async function accessibilityViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  return results.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact,
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.join(' ')).slice(0, 5),
  }));
}

/**
 * A file of the built site's code, by its name before the build's hash:
 * "index" (the page's first script), "start-app" (the app), a view's or a
 * library's own file.
 */
export function scriptFile(name: string): RegExp {
  return new RegExp(`/assets/${name}-[\\w-]+\\.js$`);
}

/**
 * Holds back every request the page makes to an address matching `pattern`
 * until `release` is called, as a slow network would. `wasAsked` tells whether
 * the page has asked for it meanwhile.
 */
export async function holdBack(page: Page, pattern: string | RegExp) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let asked = false;
  await page.route(pattern, async (route) => {
    asked = true;
    await released;
    await route.continue();
  });
  return { release, wasAsked: () => asked };
}

/**
 * The stored booking requests made with `email`, oldest first, read back from
 * the test server's database as `npx hijama` reads it: `columns` as a select
 * list ("*", or names separated by commas), each row as PostgREST gives it.
 */
export async function storedBookings(
  email: string,
  columns = '*',
  dataDir = e2eDataDir,
): Promise<Array<Record<string, unknown>>> {
  if (!/^(\*|[a-z_]+(,[a-z_]+)*)$/.test(columns)) throw new Error(`Not a column list: ${columns}`);
  const rows = await queryRunningServer<{ row: Record<string, unknown> }>(
    { DATA_DIR: dataDir },
    `select to_json(b) as row from (
       select ${columns} from public.bookings where email = $1 order by created_at) as b`,
    [email],
  );
  return rows.map(({ row }) => row);
}

/** The booking button fixed at the bottom of a phone's screen (src/app/app.tsx). */
export function fixedBookButton(page: Page) {
  return page.locator('a.fixed-book-button');
}

/** Scrolls the page to its very end, where the footer's last line is. */
export async function scrollToEnd(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
}

/**
 * Waits until the page has drawn a frame from now on: the second of two
 * animation frames starts once the first is painted, with its layout shifts
 * reported.
 */
export async function nextFrameDrawn(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}

/** Has every page load from now on record its layout shifts that no input caused. */
export function recordLayoutShifts(page: Page) {
  return page.addInitScript(() => {
    const shifts: number[] = [];
    const record = (entries: PerformanceEntryList) => {
      for (const entry of entries as Array<
        PerformanceEntry & { value: number; hadRecentInput: boolean }
      >) {
        if (!entry.hadRecentInput) shifts.push(entry.value);
      }
    };
    const observer = new PerformanceObserver((list) => record(list.getEntries()));
    observer.observe({ type: 'layout-shift', buffered: true });
    // With the shifts reported but not yet handed to the observer's callback.
    (window as unknown as { layoutShifts: () => number[] }).layoutShifts = () => {
      record(observer.takeRecords());
      return shifts;
    };
  });
}

/** The layout shifts of the page's load so far (see recordLayoutShifts). */
export const layoutShifts = (page: Page) =>
  page.evaluate(() => (window as unknown as { layoutShifts: () => number[] }).layoutShifts());

/** The errors the page logs or throws from now on, as they come. */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** What the browser refuses under the security policy from now on, as it logs it. */
export function policyViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/** The booking form's notice that a send is still waiting for the page's code. */
export function sendStalledNotice(page: Page) {
  return page.getByRole('alert').filter({ hasText: site.bookingForm.sendStalled });
}

/** A unique e-mail address per test, so tests sharing a server find their own rows. */
export function uniqueEmail(label: string): string {
  return `${label}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** Types each value given into the booking form's field of that name. */
export async function fillBookingForm(
  page: Page,
  values: Partial<Record<BookingField, string>>,
): Promise<void> {
  for (const [field, value] of Object.entries(values) as [BookingField, string][])
    await page.getByLabel(site.bookingForm.labels[field]).fill(value);
}

/** Expects each booking-form field named in `values` to hold its value. */
export async function expectBookingForm(
  page: Page,
  values: Partial<Record<BookingField, string>>,
): Promise<void> {
  for (const [field, value] of Object.entries(values) as [BookingField, string][])
    await expect(page.getByLabel(site.bookingForm.labels[field])).toHaveValue(value);
}

/** The booking form's thank-you modal, titled as the specification words it. */
export function thankYou(page: Page) {
  return page.getByRole('dialog', { name: specifiedWords.thankYouTitle });
}

/** Posts a booking request, the tests' sample with `fields` over its own, to the server at a URL. */
export { postBooking } from '../server/testing/booking-samples.ts';

/** The booking requests the page posts from now on, as they are sent. */
export function bookingPosts(page: Page): Request[] {
  const posts: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/rest/v1/bookings')
      posts.push(request);
  });
  return posts;
}

/** The REST API calls the page makes from now on, as "METHOD path status", as they are answered. */
export function apiCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith('/rest/v1/'))
      calls.push(`${response.request().method()} ${pathname} ${response.status()}`);
  });
  return calls;
}
