import { storedValue } from '../supabase/functions/_shared/core/booking-rules.ts';
import { expect, test, type Locator } from '@playwright/test';
import { site } from '../src/content/site.ts';
import { sendStalledAfterMs } from '../src/boot/protocol.ts';
import {
  fillBookingForm,
  holdBack,
  openMenu,
  openView,
  scriptFile,
  sendStalledNotice,
  sideMenu,
  storedBookings,
  thankYou,
  uniqueEmail,
  viewHeadings,
} from './fixtures.ts';
import { specifiedWords } from './specified-words.ts';

const fullName = site.bookingForm.labels.fullName;

test('a session is booked from start to finish with the keyboard alone', async ({ page }) => {
  const email = uniqueEmail('keyboard');
  await openView(page, 'home');

  // Skip link first, then on to the hero's booking button.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: site.chrome.skipLink });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  // It moves focus to the main content without changing the page.
  await expect(page.getByRole('heading', { level: 1, name: viewHeadings.home })).toBeFocused();
  expect(new URL(page.url()).hash).toBe('');
  const hero = page.locator('.hero a.button-primary');
  for (
    let presses = 0;
    presses < 10 && !(await hero.evaluate((el) => el === document.activeElement));
    presses += 1
  ) {
    await page.keyboard.press('Tab');
  }
  await expect(hero).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: viewHeadings.contact })).toBeFocused();

  // From the heading, Tab reaches the fields in order.
  await page.keyboard.press('Tab');
  await expect(page.getByLabel(fullName)).toBeFocused();
  await page.keyboard.press('Enter'); // an empty submit: the messages, focus back on the first field
  await expect(page.getByText(specifiedWords.fieldMessages.fullNameRequired)).toBeVisible();
  await expect(page.getByLabel(fullName)).toBeFocused();
  for (const typed of ['Keyboard User', '07700 900123', email, '@keys']) {
    await page.keyboard.type(typed);
    await page.keyboard.press('Tab');
  }
  // The button, the modal and its Close button as the specification words them (specified-words.ts).
  await expect(page.getByRole('button', { name: specifiedWords.bookButton })).toBeFocused();
  await page.keyboard.press('Enter');

  const modal = thankYou(page);
  await expect(modal).toBeVisible();
  await expect(modal.getByRole('button', { name: specifiedWords.closeButton })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(modal).toBeHidden();
  await expect(page.getByLabel(fullName)).toBeFocused();

  expect(await storedBookings(email, 'full_name,instagram')).toEqual([
    { full_name: 'Keyboard User', instagram: storedValue('instagram', '@keys') },
  ]);
});

test('focus is always visible on the controls a keyboard reaches', async ({ page }) => {
  await openView(page, 'contact');
  for (let step = 0; step < 12; step += 1) {
    await page.keyboard.press('Tab');
    const ring = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      const style = getComputedStyle(element);
      return { tag: element.tagName, outline: style.outlineStyle, shadow: style.boxShadow };
    });
    expect(ring.outline !== 'none' || ring.shadow !== 'none', JSON.stringify(ring)).toBe(true);
  }
});

test('the focus ring is gold on the dark top bar and the footer, and stays blue on the light menu opened from the dark bar', async ({
  page,
}) => {
  await openView(page, 'contact');
  await page.evaluate(() => window.scrollTo(0, 600));
  await expect(page.locator('header.nav-bar')).toHaveAttribute('data-scrolled', 'true');
  // The ring's colour (base.css: outline in var(--focus)) where each control sits.
  const ringOf = (control: Locator) =>
    control.evaluate((element) => getComputedStyle(element).getPropertyValue('--focus').trim());
  const token = (name: string) =>
    page.evaluate(
      (property) => getComputedStyle(document.body).getPropertyValue(property).trim(),
      name,
    );
  const [blue, gold] = [await token('--focus'), await token('--gold-300')];
  expect(await ringOf(page.getByRole('button', { name: site.chrome.openMenu }))).toBe(gold);
  expect(await ringOf(page.locator('footer a').first())).toBe(gold);
  await openMenu(page);
  expect(await ringOf(sideMenu(page).getByRole('link').first())).toBe(blue);
});

test('on a phone, what the keyboard focuses is never hidden under the top bar or the fixed Book button, forwards or back', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // Scrolled at once, so that each position is final when it is read.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  /**
   * The focused element (its start, to name it) and its part under a fixed
   * bar, in px; 0 for the bars' own controls, the skip link (fixed, above
   * them) and none (past the last stop).
   */
  const focusedUnderBars = () =>
    page.evaluate(() => {
      const focused = document.activeElement as HTMLElement;
      const bars = [...document.querySelectorAll<HTMLElement>('.nav-bar, .fixed-book-button')];
      const name = focused.outerHTML.slice(0, 80);
      if (
        focused === document.body ||
        bars.some((bar) => bar.contains(focused)) ||
        getComputedStyle(focused).position === 'fixed'
      )
        return { name, under: 0 };
      const box = focused.getBoundingClientRect();
      const under = Math.max(
        0,
        ...bars
          .filter((bar) => getComputedStyle(bar).visibility === 'visible')
          .map((bar) => bar.getBoundingClientRect())
          .map((bar) => Math.min(box.bottom, bar.bottom) - Math.max(box.top, bar.top)),
      );
      return { name, under };
    });
  for (const view of ['home', 'benefits']) {
    await openView(page, view);
    for (const key of [...Array(40).fill('Tab'), ...Array(40).fill('Shift+Tab')]) {
      await page.keyboard.press(key);
      const { name, under } = await focusedUnderBars();
      expect(under, `${view}, ${key} to "${name}"`).toBe(0);
    }
  }
});

test('before the app has come, the booking form takes the keyboard, looks busy once sent, says when a send waits too long, and the app sends what was typed', async ({
  page,
}) => {
  const email = uniqueEmail('before.app');
  // The app's code held back: the booking page is on screen from the HTML,
  // its form made usable by the page's first script, while the app comes.
  const app = await holdBack(page, scriptFile('start-app'));
  // The page's clock runs as usual, and is moved on instead of waiting out the notice's delay.
  await page.clock.install();
  await openView(page, 'home');
  const hero = page.locator('.hero a.button-primary');
  await hero.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: viewHeadings.contact })).toBeFocused();

  // Tab, type, and send with Enter: all before the app.
  await expect(sendStalledNotice(page)).toBeHidden();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel(fullName)).toBeFocused();
  await page.keyboard.type('  Before App  ');
  await page.keyboard.press('Tab');
  await page.keyboard.type('07700 900123');
  await page.keyboard.press('Tab');
  await page.keyboard.type(email);
  await page.keyboard.press('Enter');
  // The send asks for the app; its request reaches the route a moment later.
  await expect.poll(() => app.wasAsked()).toBe(true);
  // The browser did not send the form itself: the address is as it was.
  await expect(page).toHaveURL(/\/#contact$/);
  await expect(thankYou(page)).toHaveCount(0);
  // The form looks as while the app sends: nothing to tap twice.
  await expect(page.getByRole('button', { name: site.bookingForm.submit })).toBeDisabled();
  await expect(page.getByLabel(fullName)).toBeDisabled();
  // A send that waits too long for the app says so.
  await page.clock.fastForward(sendStalledAfterMs);
  await expect(sendStalledNotice(page)).toBeVisible();
  const { phone } = site.contactDetails;
  await expect(sendStalledNotice(page).getByRole('link', { name: phone.display })).toHaveAttribute(
    'href',
    `tel:${phone.international}`,
  );

  // The app comes, adopts the form as it is, and sends it.
  app.release();
  await expect(thankYou(page)).toBeVisible();
  await expect(sendStalledNotice(page)).toBeHidden();
  expect(await storedBookings(storedValue('email', email), 'full_name,phone')).toEqual([
    { full_name: 'Before App', phone: storedValue('phone', '07700 900123') },
  ]);
});

test('a send asked for before the first script of the page has run is made once it and the app have come', async ({
  page,
}) => {
  const email = uniqueEmail('before.script');
  // The first script held back: the booking page is the HTML and the boot script alone.
  const firstScript = await holdBack(page, scriptFile('index'));
  // Not until the load event, which the held script can be part of (see document.spec.ts).
  await page.goto('/#contact', { waitUntil: 'domcontentloaded' });
  await fillBookingForm(page, { fullName: 'Early Sender', phone: '07700 900124', email });
  await page.getByLabel(site.bookingForm.labels.email).press('Enter');
  await expect(page).toHaveURL(/\/#contact$/);

  firstScript.release();
  await expect(thankYou(page)).toBeVisible();
  expect(await storedBookings(storedValue('email', email), 'full_name')).toEqual([
    { full_name: 'Early Sender' },
  ]);
});
