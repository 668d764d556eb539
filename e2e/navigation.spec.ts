import { expect, test } from '@playwright/test';
import { site, viewTitles, type PageName } from '../src/content/site.ts';
import {
  accessibilityViolations,
  expectFocusKept,
  nextFrameDrawn,
  openMenu,
  openView,
  scriptFile,
  sideMenu,
  untilAppAdopted,
  viewHeadings,
} from './fixtures.ts';
import { specifiedWords } from './specified-words.ts';

/** The menu's entries: the label, the heading of the view it opens, and the fragment. */
const menuEntries = site.navigation.map(({ id, label }) => ({
  id,
  label,
  heading: viewHeadings[id],
  hash: id === 'home' ? '' : `#${id}`,
}));

const menuLabel = (id: PageName) => site.navigation.find((item) => item.id === id)!.label;

test.describe('side menu', () => {
  test('choosing each page navigates, closes the menu, scrolls to the top, focuses the heading, Back and Forward move from and to it, and it has its own title after a switch and through history', async ({
    page,
  }) => {
    const h1 = page.getByRole('heading', { level: 1 });
    // Each page chosen from the one shown before it, home from the last.
    let from = menuEntries.at(-1)!.id;
    await openView(page, from);
    for (const { id, label, heading, hash } of menuEntries) {
      // The first with the menu's slide and the smooth scroll, the others at once.
      if (id !== menuEntries[0]!.id) await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.evaluate(() => window.scrollTo(0, 400));
      await openMenu(page);
      await sideMenu(page).getByRole('link', { name: label, exact: true }).click();
      await expect(sideMenu(page), id).toBeHidden();
      await expect(h1).toHaveText(heading);
      await expect(h1, id).toBeFocused();
      await expect.poll(() => page.evaluate(() => window.scrollY), id).toBe(0);
      expect(new URL(page.url()).hash).toBe(hash);
      await expect(page, 'title after the switch').toHaveTitle(viewTitles[id]);
      // Back and Forward move between the views, focusing the heading.
      await page.goBack();
      await expect(h1).toHaveText(viewHeadings[from]);
      await expect(h1, `heading back from ${id}`).toBeFocused();
      await expect(page, 'title back').toHaveTitle(viewTitles[from]);
      await page.goForward();
      await expect(h1).toHaveText(heading);
      await expect(page, 'title forward').toHaveTitle(viewTitles[id]);
      from = id;
    }
    // Back with the menu open (iOS's swipe back): the menu goes with its view.
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await openMenu(page);
    await page.goBack();
    await expect(h1).toHaveText(viewHeadings[menuEntries.at(-2)!.id]);
    await expect(sideMenu(page)).toBeHidden();
  });

  test('each page of the menu has its own title on arrival', async ({ page }) => {
    for (const { id } of menuEntries) {
      await openView(page, id);
      await expect(page, 'title on arrival').toHaveTitle(viewTitles[id]);
    }
  });

  test('opens by keyboard, keeps focus inside, and closes on Escape and with its close button, giving focus back to the menu button', async ({
    page,
  }) => {
    const menuButton = page.getByRole('button', { name: site.chrome.openMenu });
    await openView(page, 'home');
    await menuButton.focus();
    await page.keyboard.press('Enter');
    await expect(sideMenu(page)).toBeInViewport({ ratio: 1 });
    await expectFocusKept(
      page,
      'dialog.side-menu',
      Array(4).fill(['Tab', 'Tab', 'Shift+Tab']).flat(),
    );
    await page.keyboard.press('Escape');
    await expect(sideMenu(page), 'closed by Escape').toBeHidden();
    await expect(menuButton).toBeFocused();

    await openMenu(page);
    await sideMenu(page).getByRole('button', { name: site.chrome.closeMenu }).click();
    await expect(sideMenu(page), 'closed by its button').toBeHidden();
    await expect(menuButton).toBeFocused();
  });

  test('stops the page behind from scrolling while open, and closes on a click on the backdrop', async ({
    page,
  }) => {
    const overflow = () => page.evaluate(() => getComputedStyle(document.documentElement).overflow);
    await page.setViewportSize({ width: 1280, height: 800 });
    await openView(page, 'home');
    await openMenu(page);
    await page.mouse.move(200, 400);
    // The wheel is answered by the time it returns, and this browser scrolls at
    // once, not smoothly: a page free to scroll has moved by the next frame.
    await page.mouse.wheel(0, 800);
    await nextFrameDrawn(page);
    expect(await page.evaluate(() => window.scrollY), 'scrolled behind the menu').toBe(0);
    expect(await overflow()).toBe('hidden');
    // A click in the first half second is taken as the second half of a double
    // click, not a close: clicked until it closes (at once, though it slides
    // away for a while), instead of waiting that out.
    await expect(async () => {
      await page.mouse.click(100, 400);
      await expect(page.locator('dialog[open]')).toHaveCount(0, { timeout: 200 });
    }).toPass();
    await expect(sideMenu(page)).toBeHidden();
    await expect(page.getByRole('button', { name: site.chrome.openMenu })).toBeFocused();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(viewHeadings.home);
    await expect.poll(overflow).toBe('visible');
  });

  for (const [width, expected] of [
    [375, 375],
    [1280, 320],
  ] as const) {
    test(`is ${expected} px wide on a ${width} px screen, lists the five pages marking the current one, and has no axe violations`, async ({
      page,
    }) => {
      // Still, so that axe sees no card mid-reveal behind the menu.
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.setViewportSize({ width, height: 800 });
      await openView(page, 'benefits');
      await openMenu(page);
      await expect.poll(async () => (await sideMenu(page).boundingBox())?.x).toBe(width - expected);
      expect((await sideMenu(page).boundingBox())?.width).toBe(expected);
      const links = sideMenu(page).getByRole('navigation').getByRole('link');
      await expect(links).toHaveText(menuEntries.map((entry) => entry.label));
      await expect(
        sideMenu(page).getByRole('link', { name: menuLabel('benefits') }),
      ).toHaveAttribute('aria-current', 'page');
      await expect(sideMenu(page).locator('[aria-current]')).toHaveCount(1);
      const background = (id: PageName) =>
        sideMenu(page)
          .getByRole('link', { name: menuLabel(id) })
          .evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(await background('benefits')).not.toBe(await background('home'));
      expect(await accessibilityViolations(page)).toEqual([]);
    });
  }
});

test('the top bar turns dark and blurred once the page is scrolled more than 20 px', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 700 });
  await openView(page, 'home');
  const bar = page.locator('header.nav-bar');
  const style = (property: 'backdropFilter' | 'backgroundColor') =>
    bar.evaluate((el, name) => getComputedStyle(el)[name], property);
  await page.evaluate(() => window.scrollTo(0, 20));
  await expect(bar).toHaveAttribute('data-scrolled', 'false');
  await page.evaluate(() => window.scrollTo(0, 21));
  await expect(bar).toHaveAttribute('data-scrolled', 'true');
  await expect.poll(() => style('backdropFilter')).toContain('blur(');
  await expect.poll(() => style('backgroundColor')).toBe('rgba(15, 48, 46, 0.82)');
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(bar).toHaveAttribute('data-scrolled', 'false');
  expect(await style('backdropFilter')).toBe('none');
});

test("a view whose code does not arrive says so in its place, keeping the page and the booking form's typed values, and reloading shows it", async ({
  page,
}) => {
  // As after a new deployment, which has replaced the file the open page knows.
  const replaced = scriptFile('benefits-view');
  await page.route(replaced, (route) => route.fulfill({ status: 404 }));
  await openView(page, 'contact');
  await untilAppAdopted(page);
  const name = page.getByLabel(site.bookingForm.labels.fullName);
  await name.fill('Aisha Khan');
  await openMenu(page);
  await sideMenu(page)
    .getByRole('link', { name: menuLabel('benefits'), exact: true })
    .click();
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(site.viewLoadFailed.heading);
  await expect(heading).toBeFocused();
  await expect(page).toHaveTitle(viewTitles['load-failed']);
  await expect(page.getByRole('button', { name: site.chrome.openMenu })).toBeVisible();
  expect(await accessibilityViolations(page)).toEqual([]);

  await page.goBack();
  await expect(name).toHaveValue('Aisha Khan');
  await expect(page).toHaveTitle(viewTitles.contact);
  await page.goForward();
  await expect(heading).toHaveText(site.viewLoadFailed.heading);
  await expect(page).toHaveTitle(viewTitles['load-failed']);
  await page.unroute(replaced);
  await page.getByRole('button', { name: site.viewLoadFailed.reload }).click();
  await expect(heading).toHaveText(viewHeadings.benefits);
});

test('/#home is the home view, and a fragment typed into the address bar switches the view', async ({
  page,
}) => {
  await page.goto('/#home');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(viewHeadings.home);
  await page.evaluate(() => {
    window.location.hash = '#testimonials';
  });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(viewHeadings.testimonials);
});

test.describe('motion', () => {
  test.use({ viewport: { width: 375, height: 700 } });

  test('scrolls smoothly to the top after a switch', async ({ page }) => {
    await openView(page, 'home');
    await page.evaluate(() => window.scrollTo(0, 2500));
    // Every position the page passes through, recorded in the page itself, so
    // that a busy machine cannot miss the animation between two round trips.
    await page.evaluate(() => {
      const seen: number[] = [];
      Object.assign(window, { scrollPositions: seen });
      window.addEventListener('scroll', () => seen.push(window.scrollY));
    });
    await page.getByRole('link', { name: specifiedWords.bookNowButton }).click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    // Mid-animation the page was neither where it was nor at the top yet.
    const positions = await page.evaluate(
      () => (window as unknown as { scrollPositions: number[] }).scrollPositions,
    );
    expect(positions.some((position) => position > 0 && position < 2500)).toBe(true);
  });

  test('under reduced motion, jumps to the top at once and shows every card at once', async ({
    page,
  }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openView(page, 'home');
    await page.evaluate(() => window.scrollTo(0, 2500));
    await page.getByRole('link', { name: specifiedWords.bookNowButton }).click();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    await openView(page, 'benefits');
    const last = page.locator('.card').last();
    expect(await last.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    await expect(last).toHaveAttribute('data-reveal', 'static');
  });

  test('reveals cards as they scroll into view, fading and scaling in over 1000 ms', async ({
    page,
  }) => {
    await openView(page, 'benefits');
    const last = page.locator('.card').last();
    await expect(last).toHaveAttribute('data-reveal', 'waiting');
    expect(await last.evaluate((el) => getComputedStyle(el).opacity)).toBe('0');
    await last.scrollIntoViewIfNeeded();
    await expect(last).toHaveAttribute('data-reveal', 'shown');
    expect(await last.evaluate((el) => getComputedStyle(el).transitionDuration)).toBe('1s, 1s');
    expect(await last.evaluate((el) => getComputedStyle(el).transform)).not.toBe('none');
    await expect.poll(() => last.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
  });

  test('never leaves content invisible when IntersectionObserver is missing', async ({ page }) => {
    await page.addInitScript(() => {
      // @ts-expect-error: simulating an older browser
      delete window.IntersectionObserver;
    });
    await openView(page, 'benefits');
    const last = page.locator('.card').last();
    expect(await last.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
  });
});
