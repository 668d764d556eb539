import { expect, test } from '@playwright/test';
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
