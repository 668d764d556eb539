/**
 * Draws the site's icons and its sharing image with Chromium, from the same
 * mark and palette as the page, into public/. Run again after changing the mark,
 * the name or the colours: npm run images
 */
import { readFile } from 'node:fs/promises';
import { chromium } from '@playwright/test';
import { brandColours } from '../supabase/functions/_shared/core/brand-colours.ts';
import { site } from '../src/content/site.ts';
import { chromiumArgs, chromiumPath } from './lib/chromium.ts';

const cup = (stroke: string, accent: string) => `
  <g fill="none" stroke-linecap="round" stroke-linejoin="round" stroke-width="1.9">
    <path d="M8 24c0-9.5 3.4-15 8-15s8 5.5 8 15M13.6 9.3V5.5h4.8v3.8" stroke="${stroke}"/>
    <path d="M5 24.5h22" stroke="${accent}"/>
  </g>`;

const { teal800: teal, creamOnDark: cream, gold300: gold } = brandColours;

function iconSvg(size: number, padding: number, rounded: boolean): string {
  const radius = rounded ? size * 0.22 : 0;
  const inner = size - padding * 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
    <rect width="${size}" height="${size}" rx="${radius}" fill="${teal}"/>
    <svg x="${padding}" y="${padding}" width="${inner}" height="${inner}" viewBox="0 0 32 32">${cup(cream, gold)}</svg>
  </svg>`;
}

async function fontFace(family: string, file: string): Promise<string> {
  const data = (await readFile(`node_modules/@fontsource-variable/${file}`)).toString('base64');
  return `@font-face{font-family:'${family}';src:url(data:font/woff2;base64,${data}) format('woff2');font-weight:300 700}`;
}

const shareCard = async () => `<!doctype html><html><head><style>
  ${await fontFace('Fraunces', 'fraunces/files/fraunces-latin-wght-normal.woff2')}
  ${await fontFace('Inter', 'inter/files/inter-latin-wght-normal.woff2')}
  body{margin:0;width:1200px;height:630px;display:flex;align-items:center;gap:72px;padding:0 96px;box-sizing:border-box;
    background:radial-gradient(700px 420px at 90% 10%,${brandColours.teal100},transparent 70%),radial-gradient(520px 360px at 0% 100%,${brandColours.copper100},transparent 70%),${brandColours.sand50};
    font-family:Inter;color:${teal}}
  .mark{width:300px;height:300px;flex:none;border-radius:50%;display:grid;place-items:center;
    background:radial-gradient(circle at 40% 35%,${brandColours.teal600},${brandColours.teal900});box-shadow:0 30px 60px -30px rgba(18,60,58,.6)}
  .eyebrow{font-size:26px;font-weight:600;letter-spacing:.14em;text-transform:uppercase;color:${brandColours.copper700}}
  h1{font-family:Fraunces;font-weight:520;font-size:96px;line-height:1;margin:18px 0 24px;letter-spacing:-.02em}
  p{font-size:30px;line-height:1.4;color:${brandColours.inkMuted};margin:0;max-width:600px}
</style></head><body>
  <div class="mark"><svg width="170" height="170" viewBox="0 0 32 32">${cup(cream, gold)}</svg></div>
  <div><div class="eyebrow">${site.address.city}, ${site.address.county}</div><h1>${site.practiceName}</h1>
  <p>${site.seo.shareTagline}</p></div>
</body></html>`;

const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
try {
  const page = await browser.newPage();
  const icons: Array<[string, number, number, boolean]> = [
    ['public/favicon-32.png', 32, 2, true],
    ['public/apple-touch-icon.png', 180, 22, false],
    ['public/icon-192.png', 192, 24, true],
    ['public/icon-512.png', 512, 64, true],
    // Maskable icons keep their drawing inside the central 80% safe zone.
    ['public/icon-512-maskable.png', 512, 120, false],
  ];
  for (const [path, size, padding, rounded] of icons) {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(`<body style="margin:0">${iconSvg(size, padding, rounded)}</body>`);
    await page.screenshot({ path, omitBackground: true });
    console.log(path);
  }
  await page.setViewportSize({
    width: site.seo.shareImage.width,
    height: site.seo.shareImage.height,
  });
  await page.setContent(await shareCard());
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: `public${site.seo.shareImage.src}` });
  console.log(`public${site.seo.shareImage.src}`);
} finally {
  await browser.close();
}
