/**
 * Measures how much to scale each local fallback font so that it takes the
 * width of the web font it stands in for, on the site's own text, and prints
 * the values for src/styles/fallback-fonts.css. Run it after changing the
 * fonts or much of the copy: a fallback that is too wide or too narrow wraps
 * lines differently, and the page moves when the web font arrives.
 * Usage: npm run fit-fonts   (builds first; needs the local fonts installed)
 */
import { chromium } from '@playwright/test';
import { interactiveAttribute } from '../src/boot/protocol.ts';
import { pageNames } from '../src/content/site.ts';
import { startBuiltServer } from './lib/built-server.ts';
import { chromiumArgs, chromiumPath } from './lib/chromium.ts';

/** Ascent and descent of the web fonts (hhea, over units per em). */
const webFonts = {
  serif: { family: 'Fraunces', weight: 560, ascent: 0.978, descent: 0.255 },
  sans: { family: 'Inter', weight: 400, ascent: 0.969, descent: 0.241 },
} as const;

/** Local fonts to fit, by the web font they replace; those not installed are skipped. */
const localFonts = {
  serif: ['Georgia', 'Noto Serif', 'DejaVu Serif', 'Liberation Serif'],
  sans: ['Arial', 'Helvetica', 'Liberation Sans', 'Roboto', 'DejaVu Sans'],
} as const;

type Kind = keyof typeof webFonts;

const server = await startBuiltServer();
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
try {
  const page = await browser.newPage();
  const texts: Record<Kind, string[]> = { serif: [], sans: [] };
  for (const name of pageNames) {
    await page.goto('about:blank');
    await page.goto(name === 'home' ? server.url : `${server.url}/#${name}`);
    await page.locator(`html[${interactiveAttribute}]`).waitFor({ state: 'attached' });
    const found = await page.evaluate(`({
      serif: [...document.querySelectorAll('h1, h2, h3, .brand-name, .footer-name')]
        .map((element) => element.textContent.trim()),
      sans: [...document.querySelectorAll('p, li, a, label, button, dt, dd')]
        .filter((element) => element.children.length === 0)
        .map((element) => element.textContent.trim()),
    })`);
    const { serif, sans } = found as Record<Kind, string[]>;
    texts.serif.push(...serif);
    texts.sans.push(...sans);
  }

  console.log('font-family fallback        size-adjust  ascent-override  descent-override');
  for (const kind of ['serif', 'sans'] as const) {
    const web = webFonts[kind];
    for (const local of localFonts[kind]) {
      // A string, not a function: the page runs it as written.
      const ratio = (await page.evaluate(`(async () => {
        const texts = ${JSON.stringify(texts[kind])};
        await document.fonts.load('${web.weight} 100px ${web.family}');
        const context = document.createElement('canvas').getContext('2d');
        // A font that is not installed falls back to monospace, whose width gives it away.
        const alphabet = 'abcdefghijklmnopqrstuvwxyz';
        context.font = '100px "${local}", monospace';
        const localWidth = context.measureText(alphabet).width;
        context.font = '100px monospace';
        if (localWidth === context.measureText(alphabet).width) return null;
        const width = (font) => {
          context.font = font;
          return texts.reduce((sum, text) => sum + context.measureText(text).width, 0);
        };
        return width('${web.weight} 100px ${web.family}') / width('${web.weight} 100px "${local}", monospace');
      })()`)) as number | null;
      const label = `${web.family} / ${local}`.padEnd(28);
      if (ratio === null) {
        console.log(`${label} (not installed here)`);
        continue;
      }
      const percent = (value: number, width: number) =>
        `${(value * 100).toFixed(1)}%`.padEnd(width);
      console.log(
        `${label} ${percent(ratio, 13)}${percent(web.ascent / ratio, 17)}${percent(web.descent / ratio, 17)}`,
      );
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
