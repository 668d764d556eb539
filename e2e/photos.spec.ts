import { readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import {
  buildSiteInto,
  startBuiltServer,
  type RunningServer,
} from '../scripts/lib/built-server.ts';
import { writeTestPhoto } from '../server/testing/test-photo.ts';
import { site } from '../src/content/site.ts';
import {
  accessibilityViolations,
  expectViewShown,
  fillBookingForm,
  openView,
  pageErrors,
  storedBookings,
  thankYou,
  uniqueEmail,
  untilAppAdopted,
} from './fixtures.ts';
import { specifiedWords } from './specified-words.ts';

const widths = [390, 1280];
const hero = (page: Page) => page.locator('.hero-visual picture');
const portrait = (page: Page) => page.locator('.portrait picture');
const kit = (page: Page) => page.locator('.first-visit-photo');

/** Resolves once the picture's image has loaded and decoded, with the file the browser chose. */
const chosenFile = (picture: Locator) =>
  picture.locator('img').evaluate(async (img: HTMLImageElement) => {
    await img.decode();
    return img.currentSrc;
  });

/** The marks of a photo made for a place: an AVIF source and a WebP image, each at 1x and 2x, with the 1x size. */
async function expectPhotoMarkup(picture: Locator, name: string, width: number, height: number) {
  const file = (size: number, format: string) =>
    new RegExp(`/assets/photos/${name}-[\\w-]+-${size}\\.${format}`);
  await expect(picture.locator('source')).toHaveCount(1);
  await expect(picture.locator('source')).toHaveAttribute('type', 'image/avif');
  await expect(picture.locator('source')).toHaveAttribute(
    'srcset',
    new RegExp(`${file(width, 'avif').source} 1x, ${file(width * 2, 'avif').source} 2x$`),
  );
  const img = picture.locator('img');
  await expect(img).toHaveAttribute('src', file(width, 'webp'));
  await expect(img).toHaveAttribute('srcset', new RegExp(`${file(width * 2, 'webp').source} 2x$`));
  await expect(img).toHaveAttribute('width', String(width));
  await expect(img).toHaveAttribute('height', String(height));
}

const anonKey = 'cross-origin-anon-key';

/**
 * One build for every test here, its seconds spent once: with the practice's
 * photos, and for a separate booking backend (the Supabase mode), to which
 * VITE_SUPABASE_URL sends the bookings; a second server stands in for it.
 */
test.describe("with the practice's photos, built for a separate booking backend", () => {
  test.describe.configure({ mode: 'serial', timeout: 60_000 });

  let photosDir: string;
  let siteDir: string;
  let api: RunningServer;
  let server: RunningServer;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    photosDir = await mkdtemp(join(tmpdir(), 'hijama-photos-'));
    await writeTestPhoto(join(photosDir, 'room.jpg'), 1200, 1500);
    await writeTestPhoto(join(photosDir, 'practitioner.png'), 600, 600);
    await writeTestPhoto(join(photosDir, 'kit.webp'), 900, 675);
    api = await startBuiltServer({ ANON_KEY: anonKey });
    siteDir = await buildSiteInto({
      PHOTOS_DIR: photosDir,
      VITE_SUPABASE_URL: api.url,
      VITE_SUPABASE_ANON_KEY: anonKey,
    });
    server = await startBuiltServer({ DIST_DIR: siteDir });
  });

  test.afterAll(async () => {
    await Promise.all([api?.stop(), server?.stop()]);
    await Promise.all(
      [photosDir, siteDir].map((dir) => dir && rm(dir, { recursive: true, force: true })),
    );
  });

  async function openPage(browser: Browser, width: number, view: string) {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width, height: 844 },
      reducedMotion: 'reduce',
    });
    const page = await context.newPage();
    const photosAsked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/assets/photos/')) photosAsked.push(request.url());
    });
    await openView(page, view);
    return { page, photosAsked, close: () => context.close() };
  }

  for (const width of widths) {
    test(`at ${width} px, home shows the room first and the practitioner when reached, benefits the kit beside the first-visit questions when reached, and both pass axe`, async ({
      browser,
    }) => {
      const { page, photosAsked, close } = await openPage(browser, width, 'home');

      await expectPhotoMarkup(hero(page), 'room', 416, 520);
      await expect(hero(page).locator('img')).toHaveAttribute('fetchpriority', 'high');
      await expect(hero(page).locator('img')).not.toHaveAttribute('loading');
      await expect(hero(page).locator('img')).toHaveAttribute('alt', site.home.hero.image.alt);
      expect(await chosenFile(hero(page))).toMatch(/-416\.avif$/);
      await expect(page.locator('.hero-art')).toHaveCount(0);
      if (width === 1280) {
        // In the first screen on a wide screen: what the browser fetches first.
        await expect(hero(page).locator('img')).toBeInViewport();
      }

      await expectPhotoMarkup(portrait(page), 'practitioner', 224, 224);
      const portraitImage = portrait(page).locator('img');
      await expect(portraitImage).toHaveAttribute('loading', 'lazy');
      await expect(portraitImage).toHaveAttribute('alt', site.home.practitioner.portrait.alt);
      await expect(portraitImage).not.toHaveAttribute('fetchpriority');
      // Far below the first screen: not fetched until the visitor comes near.
      expect(photosAsked.filter((url) => url.includes('practitioner-'))).toEqual([]);
      expect(await accessibilityViolations(page)).toEqual([]);
      await portraitImage.scrollIntoViewIfNeeded();
      expect(await chosenFile(portrait(page))).toMatch(/practitioner-[\w-]+-224\.avif$/);
      await expect(page.locator('.portrait-mark')).toHaveCount(0);

      // On benefits, the kit is closer to the first screen than Chromium's
      // lazy-loading distance on a wide screen, so whether it is fetched at once
      // is the browser's call: its attribute is what the page decides.
      await openView(page, 'benefits');
      await expectPhotoMarkup(kit(page), 'kit', 352, 264);
      const image = kit(page).locator('img');
      await expect(image).toHaveAttribute('loading', 'lazy');
      await expect(image).toHaveAttribute('alt', site.benefits.firstVisit.photo.alt);
      expect(await accessibilityViolations(page)).toEqual([]);
      await image.scrollIntoViewIfNeeded();
      expect(await chosenFile(kit(page))).toMatch(/kit-[\w-]+-352\.avif$/);
      // Its box keeps the width and height it was given: nothing moves as it loads.
      const box = await image.boundingBox();
      expect(box && Math.abs(box.width / box.height - 352 / 264)).toBeLessThan(0.02);
      await close();
    });
  }

  test("a view reached by its address fetches none of home's photos, which the page's HTML holds", async ({
    browser,
  }) => {
    // Every address is served the same HTML, home's markup in it; what a view
    // fetches must be what it shows (the kit on benefits comes when scrolled to).
    for (const view of ['benefits', 'testimonials', 'location', 'contact']) {
      const { page, photosAsked, close } = await openPage(browser, 1280, view);
      await expectViewShown(page, view);
      await page.waitForLoadState('networkidle');
      expect(
        photosAsked.filter((url) => /\/(room|practitioner)-/.test(url)),
        view,
      ).toEqual([]);
      await close();
    }
  });

  test("home's first-screen photo is adopted by the app as it is, and shown without JavaScript", async ({
    browser,
  }) => {
    const { page, close } = await openPage(browser, 1280, 'home');
    const errors = pageErrors(page);
    const image = hero(page).locator('img');
    await image.evaluate(
      (img) => ((img as HTMLImageElement & { original?: boolean }).original = true),
    );
    await untilAppAdopted(page);
    // The same element, not one the app drew again: nothing fetched or laid out twice.
    expect(
      await image.evaluate((img) => (img as HTMLImageElement & { original?: boolean }).original),
    ).toBe(true);
    await expect(image).toHaveAttribute('fetchpriority', 'high');
    expect(errors).toEqual([]);
    await close();

    const withoutScripts = await browser.newContext({
      baseURL: server.url,
      javaScriptEnabled: false,
    });
    const plain = await withoutScripts.newPage();
    await plain.goto('/');
    await expect(hero(plain).locator('img')).toBeVisible();
    expect(await chosenFile(hero(plain))).toMatch(/room-[\w-]+-416\.avif$/);
    await withoutScripts.close();
  });

  test('stores the booking on the other origin, through CORS, with its key', async ({ page }) => {
    test.setTimeout(90_000);
    const email = uniqueEmail('cross');
    const posts: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()));
    await openView(page, 'contact', server.url);
    await fillBookingForm(page, { fullName: 'Cross Origin', phone: '07700 900123', email });
    await page.getByRole('button', { name: specifiedWords.bookButton }).click();
    await expect(thankYou(page)).toBeVisible();

    expect(posts).toEqual([`${api.url}/rest/v1/bookings`]);
    const read = (of: RunningServer) => storedBookings(email, 'full_name,email', of.dataDir);
    expect(await read(api)).toEqual([{ full_name: 'Cross Origin', email }]);
    expect(await read(server)).toEqual([]);
  });

  test('the photos are served as files cached for good', async ({ request }) => {
    const html = await readFile(join(siteDir, 'index.html'));
    const src = /<img src="(\/assets\/photos\/room-[^"]+)"/.exec(html.toString())?.[1];
    const response = await request.get(`${server.url}${src}`);
    expect(response.headers()['content-type']).toBe('image/webp');
    expect(response.headers()['cache-control']).toContain('immutable');
    test.info().annotations.push({
      type: 'index.html with three photos (KiB gzip)',
      description: String(Math.round(gzipSync(html, { level: 9 }).length / 102.4) / 10),
    });
  });
});

/** Whether photos/ holds the practice's photos, which the usual build, the one tested below, then shows. */
const practiceHasPhotos = readdirSync('photos').some((file) => !file.endsWith('.md'));

for (const width of widths) {
  test(`at ${width} px with no photos, the drawn hero and the practitioner's mark stay, and no picture`, async ({
    page,
  }) => {
    test.skip(practiceHasPhotos, "photos/ holds the practice's photos: the usual build shows them");
    await page.setViewportSize({ width, height: 844 });
    await openView(page, 'home');
    await expect(page.locator('.hero-art')).toBeVisible();
    await expect(page.locator('.portrait-mark')).toBeAttached();
    await expect(page.locator('picture')).toHaveCount(0);
    await openView(page, 'benefits');
    await expect(page.locator('.questions')).toBeVisible();
    await expect(page.locator('picture')).toHaveCount(0);
  });
}
