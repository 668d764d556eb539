import { expect, test, type Page } from '@playwright/test';
import { bookingHeroAwayAttribute } from '../src/boot/protocol.ts';
import { site } from '../src/content/site.ts';
import {
  fillBookingForm,
  fixedBookButton,
  layoutShifts,
  nextFrameDrawn,
  openMenu,
  openView,
  recordLayoutShifts,
  scrollToEnd,
  thankYou,
  uniqueEmail,
  viewHeadings,
} from './fixtures.ts';
import { specifiedWords } from './specified-words.ts';

test.describe('on a phone', () => {
  test.use({ reducedMotion: 'reduce', viewport: { width: 390, height: 844 } });

  for (const view of ['home', 'benefits', 'testimonials', 'location'] as const) {
    test(`on ${view}, the fixed Book button appears once the top of the view has scrolled away, moving nothing, and leaves the footer's last line uncovered`, async ({
      page,
    }) => {
      await recordLayoutShifts(page);
      await openView(page, view);
      await expect(fixedBookButton(page)).toBeHidden();
      // What the page's script filled in is drawn: only what follows counts.
      await nextFrameDrawn(page);
      const settled = (await layoutShifts(page)).length;
      await page.mouse.wheel(0, 1500);
      await expect(fixedBookButton(page)).toBeVisible();
      // The frame that shows it is drawn, with any shift it made.
      await nextFrameDrawn(page);
      expect((await layoutShifts(page)).slice(settled), 'layout shift').toEqual([]);
      // At the very end, it leaves the footer's last line uncovered.
      await scrollToEnd(page);
      await expect(fixedBookButton(page)).toBeVisible();
      const button = (await fixedBookButton(page).boundingBox())!;
      const lastLine = (await page
        .locator('.site-footer .footer-small-print > :last-child')
        .boundingBox())!;
      expect(lastLine.y + lastLine.height, 'footer uncovered').toBeLessThanOrEqual(button.y);
      await page.evaluate(() => window.scrollTo(0, 0));
      await expect(fixedBookButton(page)).toBeHidden();
    });
  }

  test('the fixed Book button never shows on the booking view, nor over the thank-you dialog', async ({
    page,
  }) => {
    await openView(page, 'contact');
    await scrollToEnd(page);
    // Once its header is out of view, where another view would show the button.
    await expect(page.locator('html')).toHaveAttribute(bookingHeroAwayAttribute, '');
    await expect(fixedBookButton(page)).toBeHidden();
    await fillBookingForm(page, {
      fullName: 'Aisha Khan',
      phone: '07700 900 461',
      email: uniqueEmail('in-reach'),
    });
    await page.getByRole('button', { name: site.bookingForm.submit }).click();
    await expect(thankYou(page)).toBeVisible();
    await expect(fixedBookButton(page)).toBeHidden();
  });

  test('the fixed Book button is not over the open menu, is reached by Tab and opens the booking view', async ({
    page,
  }) => {
    await openView(page, 'testimonials');
    await page.mouse.wheel(0, 1500);
    await expect(fixedBookButton(page)).toBeVisible();
    await openMenu(page);
    await expect(fixedBookButton(page), 'under the open menu').toBeHidden();
    await page.keyboard.press('Escape');
    await expect(fixedBookButton(page)).toBeVisible();
    await page.locator('.closing-call a').focus();
    await page.keyboard.press('Tab');
    await expect(fixedBookButton(page)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(viewHeadings.contact);
    expect(new URL(page.url()).hash).toBe('#contact');
  });
});

test.describe('at 400 % zoom', () => {
  test.use({ reducedMotion: 'reduce', viewport: { width: 320, height: 256 } });

  test('the top bar scrolls away with the page and no Book button is fixed over it', async ({
    page,
  }) => {
    await openView(page, 'benefits');
    await page.mouse.wheel(0, 1500);
    await expect(page.locator('html')).toHaveAttribute(bookingHeroAwayAttribute, '');
    await expect(fixedBookButton(page)).toBeHidden();
    await expect(page.locator('header.nav-bar')).not.toBeInViewport();
  });

  test('the thanks, taller than the window, scroll within their card to the Close button, by keyboard too', async ({
    page,
  }) => {
    await openView(page, 'contact');
    await fillBookingForm(page, {
      fullName: 'Aisha Khan',
      phone: '07700 900 462',
      email: uniqueEmail('zoomed-thanks'),
    });
    await page.getByRole('button', { name: site.bookingForm.submit }).click();
    await expect(thankYou(page)).toBeVisible();
    const close = thankYou(page).getByRole('button', { name: specifiedWords.closeButton });
    await expect(close).not.toBeInViewport({ ratio: 1 });
    await page.keyboard.press('Tab');
    await expect(close).toBeFocused();
    await expect(close).toBeInViewport({ ratio: 1 });
    await page.keyboard.press('Enter');
    await expect(thankYou(page)).toBeHidden();
  });
});

test.describe('on a wide screen', () => {
  const topBarLink = (page: Page) =>
    page.locator('header.nav-bar').getByRole('link', { name: site.chrome.quickBook });

  test.use({ viewport: { width: 1280, height: 800 } });

  test('the top bar has a Book link, but not on the booking view', async ({ page }) => {
    await openView(page, 'benefits');
    await page.mouse.wheel(0, 1500);
    await expect(fixedBookButton(page)).toBeHidden();
    await expect(topBarLink(page)).toBeVisible();
    await topBarLink(page).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(viewHeadings.contact);
    // On the booking view it would lead where the visitor already is.
    await expect(topBarLink(page)).toBeHidden();
    await page.goBack();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(viewHeadings.benefits);
    await expect(topBarLink(page)).toBeVisible();
    // Nor on the booking view opened by its address.
    await openView(page, 'contact');
    await expect(topBarLink(page)).toBeHidden();
    await expect(page.locator('header.nav-bar').getByRole('button')).toBeVisible();
  });
});
