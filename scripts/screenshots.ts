/**
 * Writes a full-page screenshot of every view at phone and desktop widths into
 * screenshots/ (git-ignored), for a side-by-side design review.
 * Each view is loaded as a new page (a change of fragment alone would switch
 * the view in place, and the previous view's heading would pass for the new
 * one's) and scrolled through, so that its lazy images load, before the capture.
 * Usage: npm run screenshots   (builds first; serves on a free port)
 * With the practice's photos: `DIST_DIR=<a site built with PHOTOS_DIR> tsx scripts/screenshots.ts`.
 */
import { mkdir } from 'node:fs/promises';
import { chromium } from '@playwright/test';
import { pageNames } from '../src/content/site.ts';
import { mainElementId, viewAttribute } from '../src/boot/protocol.ts';
import { viewFor } from '../src/app/page-name.ts';
import { chromiumArgs, chromiumPath } from './lib/chromium.ts';
import { startBuiltServer } from './lib/built-server.ts';

const widths = [390, 1280];
const outDir = 'screenshots';

/**
 * Scrolls down a screen at a time, a frame apart, so that every lazy image
 * comes into view and is asked for; waits until each has loaded (or failed),
 * then goes back to the top and waits for what moves to settle. Runs in the page.
 */
async function scrollThrough(): Promise<void> {
  // No named function inside: tsx would wrap it in a helper the page lacks.
  for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight) {
    window.scrollTo({ top: y, behavior: 'instant' });
    await new Promise((resolve) => requestAnimationFrame(resolve));
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  await Promise.all(
    [...document.images].map((image) =>
      image.complete
        ? undefined
        : new Promise((resolve) => {
            image.addEventListener('load', resolve, { once: true });
            image.addEventListener('error', resolve, { once: true });
          }),
    ),
  );
  window.scrollTo({ top: 0, behavior: 'instant' });
  await new Promise((resolve) => requestAnimationFrame(resolve));
  // The top bar fading back to its unscrolled look, and a face first needed
  // further down, would otherwise be caught half-way.
  await document.fonts.ready;
  await Promise.all(document.getAnimations().map((animation) => animation.finished));
}

const server = await startBuiltServer();
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
try {
  await mkdir(outDir, { recursive: true });
  for (const width of widths) {
    const page = await browser.newPage({
      viewport: { width, height: width < 600 ? 844 : 800 },
      reducedMotion: 'reduce',
    });
    for (const name of [...pageNames, 'coming-soon-example']) {
      await page.goto('about:blank');
      await page.goto(`${server.url}/#${name}`);
      // The view asked for, not the pre-rendered home it replaces.
      await page
        .locator(`#${mainElementId}[${viewAttribute}="${viewFor(name)}"] h1`)
        .first()
        .waitFor();
      await page.evaluate(() => document.fonts.ready);
      await page.evaluate(scrollThrough);
      const file = `${outDir}/${name}-${width}.png`;
      await page.screenshot({ path: file, fullPage: true });
      console.log(file);
    }
    await page.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
