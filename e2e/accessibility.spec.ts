import { expect, test } from '@playwright/test';
import { navBarClass, scrolledAttribute } from '../src/boot/protocol.ts';
import { accessibilityViolations, openMenu, openView, viewNames } from './fixtures.ts';

for (const width of [375, 1280]) {
  for (const view of [...viewNames, 'coming-soon-example']) {
    test(`${view} at ${width} px has no axe violations`, async ({ page }) => {
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.setViewportSize({ width, height: 900 });
      await openView(page, view);
      expect(await accessibilityViolations(page)).toEqual([]);
    });
  }

  test(`home scrolled at ${width} px, under the darkened top bar, has no axe violations`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await openView(page, 'home');
    await page.mouse.wheel(0, 1200);
    await expect(page.locator(`.${navBarClass}`)).toHaveAttribute(scrolledAttribute, 'true');
    // The bar held halfway through its change (a frame the visitor sees too):
    // axe, which takes longer than the change to start, would see only its end.
    // What the scroll revealed is shown whole: a fade-in is not judged here.
    await page.evaluate((barSelector) => {
      const bar = document.querySelector(barSelector)!;
      for (const animation of document.getAnimations()) {
        const target = (animation.effect as KeyframeEffect | null)?.target;
        if (!target || !bar.contains(target)) {
          animation.finish();
          continue;
        }
        animation.pause();
        animation.currentTime = Number(animation.effect?.getComputedTiming().duration) / 2;
      }
    }, `.${navBarClass}`);
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  test(`the open side menu at ${width} px has no axe violations`, async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize({ width, height: 900 });
    await openView(page, 'home');
    await openMenu(page);
    expect(await accessibilityViolations(page)).toEqual([]);
  });
}

test('headings go down one level at a time on every view', async ({ page }) => {
  for (const view of [...viewNames, 'elsewhere']) {
    await openView(page, view);
    const levels = await page
      .locator('h1, h2, h3, h4')
      .evaluateAll((headings) =>
        headings.filter((h) => !h.closest('dialog')).map((h) => Number(h.tagName.slice(1))),
      );
    expect(levels[0], view).toBe(1);
    for (let index = 1; index < levels.length; index += 1) {
      expect(
        levels[index]! - levels[index - 1]!,
        `${view}: ${levels.join(',')}`,
      ).toBeLessThanOrEqual(1);
    }
  }
});
