import { expect, test } from '@playwright/test';
import { navBarClass, scrolledAttribute } from '../src/boot/protocol.ts';
import { accessibilityViolations, openView, viewNames } from './fixtures.ts';

for (const width of [375, 1280]) {
  for (const view of [...viewNames, 'coming-soon-example']) {
    test(`${view} at ${width} px has no axe violations, and its first heading is the h1`, async ({
      page,
    }) => {
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.setViewportSize({ width, height: 900 });
      await openView(page, view);
      // axe's heading-order (a best practice) checks that each heading after it goes down one level at most.
      await expect(page.locator(':is(h1, h2, h3, h4):not(dialog *)').first()).toHaveJSProperty(
        'tagName',
        'H1',
      );
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
}
