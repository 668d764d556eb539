/**
 * Writes a full-page screenshot of every view at phone and desktop widths into
 * screenshots/ (git-ignored), for a side-by-side design review.
 * Usage: npm run screenshots   (builds first; serves on a free port)
 */
import { mkdir } from 'node:fs/promises';
import { chromium } from '@playwright/test';
import { pageNames } from '../src/content/site.ts';
import { chromiumArgs, chromiumPath } from './lib/chromium.ts';
import { startBuiltServer } from './lib/built-server.ts';

const widths = [390, 1280];
const outDir = 'screenshots';

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
      await page.goto(`${server.url}/#${name}`);
      await page.evaluate(() => document.fonts.ready);
      await page.locator('h1').first().waitFor();
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
