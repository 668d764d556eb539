import { expect, test, type Page, type Request } from '@playwright/test';
import { site, type Weekday } from '../src/content/site.ts';
import { formatWeekdayDate, type IsoDate } from '../src/lib/calendar-date.ts';
import { formatTime } from '../src/lib/opening-hours.ts';
import { nextSunnahDays, sunnahDaysFrom } from '../src/lib/sunnah-days.ts';
import {
  accessibilityViolations,
  expectViewShown,
  fillBookingForm,
  holdBack,
  isInteractive,
  isViewPending,
  loadPage,
  openMenu,
  openView,
  pageErrors,
  scriptFile,
  sendStalledNotice,
  sideMenu,
  storedBookings,
  thankYou,
  untilAppAdopted,
  uniqueEmail,
  untilInteractive,
  viewHeadings,
  viewPath,
} from './fixtures.ts';
import {
  appAdoptedAttribute,
  sendAskedAttribute,
  sendStalledAfterMs,
} from '../src/boot/protocol.ts';
import { specifiedWords } from './specified-words.ts';

/** A heading only the home view has: where it shows, home is on screen. */
const homeOnly = site.home.whatIs.heading;

test.describe('the HTML before any script runs', () => {
  test('holds the home view, the business as structured data, the title, description, canonical link, sharing cards and icons', async ({
    request,
  }) => {
    const html = await (await request.get('/')).text();
    expect(html).toContain(`<html lang="${site.locale}">`);
    expect(html).toContain(homeOnly);
    expect(html).toContain(specifiedWords.bookNowButton);

    const jsonLd = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1];
    expect(jsonLd).toBeDefined();
    const business = JSON.parse(jsonLd!);
    expect(business).toMatchObject({
      '@type': 'HealthAndBeautyBusiness',
      name: site.practiceName,
      telephone: site.contactDetails.phone.international,
      email: site.contactDetails.email,
      address: {
        addressLocality: site.address.town,
        postalCode: site.address.postcode,
        addressCountry: site.address.countryCode,
      },
    });
    expect(business.openingHoursSpecification).toEqual(
      site.openingHours.map((hours) =>
        expect.objectContaining({ opens: hours.opens, closes: hours.closes }),
      ),
    );
    expect(business.review).toBeUndefined();
    // The structured data comes before the first script, which starts the page's
    // module only after the first paint.
    expect(html.indexOf('application/ld+json')).toBeLessThan(html.indexOf('<script>'));
    expect(html).not.toMatch(/<script[^>]* type="module"/);
    expect(html).not.toContain('rel="modulepreload"');

    expect(html).toContain(`<title>${site.seo.title}</title>`);
    expect(html).toMatch(/<meta name="description" content="[^"]{50,}"/);
    expect(html).toContain(`<link rel="canonical" href="${site.url}" />`);
    for (const property of ['og:title', 'og:description', 'og:image', 'og:url', 'og:type']) {
      expect(html).toContain(`property="${property}"`);
    }
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
    // The browser's icon is in the page; search engines and home screens get files.
    expect(html).toMatch(
      /<link rel="icon" href="data:image\/svg\+xml,[^"]+" type="image\/svg\+xml" \/>/,
    );
    expect(html).toContain('<link rel="icon" href="/favicon-32.png"');
    expect(html).toContain('rel="apple-touch-icon"');
    // Added by the script once the visitor acts; written out for browsers without it.
    const noscript = /<noscript>(.*?)<\/noscript>/s.exec(html)?.[1] ?? '';
    expect(noscript).toBe('<link rel="manifest" href="/manifest.webmanifest" />');
  });

  test('a link to any page shows it, pre-rendered, before the main script, the booking form never sent by the browser itself', async ({
    page,
  }) => {
    // The main script never arrives: what is on screen is the pre-rendered page alone.
    await page.route(scriptFile('index'), (route) => route.abort());
    // The page's clock runs as usual, and is moved on instead of waiting out the notice's delay.
    await page.clock.install();
    for (const view of ['benefits', 'testimonials', 'location', 'contact'] as const) {
      await loadPage(page, viewPath(view));
      await expect(page.getByRole('heading', { level: 1, name: viewHeadings[view] })).toBeVisible();
      await expectViewShown(page, view);
      await expect(page.getByText(homeOnly), view).toHaveCount(0);
      await expect(isViewPending(page), view).toHaveCount(0);
      await expect(isInteractive(page), view).toHaveCount(0);
    }
    // What is typed stays in the page: a send waits for the script.
    await page.getByLabel(site.bookingForm.labels.fullName).fill('Kept Here');
    await page.getByLabel(site.bookingForm.labels.fullName).press('Enter');
    await expect(page.locator(`html[${sendAskedAttribute}]`)).toHaveCount(1);
    expect(page.url()).toMatch(/\/#contact$/);
    await expect(page.getByLabel(site.bookingForm.labels.fullName)).toHaveValue('Kept Here');
    // The script does not come: after a while the form says the request is not sent.
    await page.clock.fastForward(sendStalledAfterMs);
    await expect(sendStalledNotice(page)).toBeVisible();
    await expect(page.getByLabel(site.bookingForm.labels.fullName)).toHaveValue('Kept Here');
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  test('a send made while the connection is down is made once it is back', async ({ page }) => {
    const email = uniqueEmail('offline');
    const isAppCode = (asked: Request) => scriptFile('start-app').test(asked.url());
    await loadPage(page, '/#contact');
    await untilInteractive(page);
    // The connection drops before the app's code has come: the visitor's
    // first touch asks for it, and that fails.
    await page.context().setOffline(true);
    const appFailed = page.waitForEvent('requestfailed', isAppCode);
    await fillBookingForm(page, { fullName: 'Patchy Signal', phone: '07700 900126', email });
    await page.getByLabel(site.bookingForm.labels.email).press('Enter');
    await appFailed;
    await expect(page.locator(`html[${appAdoptedAttribute}]`)).toHaveCount(0);

    const appFetched = page.waitForEvent('requestfinished', isAppCode);
    await page.context().setOffline(false);
    await appFetched;
    await expect(thankYou(page)).toBeVisible();
    expect(await storedBookings(email, 'full_name')).toEqual([{ full_name: 'Patchy Signal' }]);
  });

  test('a main script that did not come is asked for again at the next touch', async ({ page }) => {
    let asked = 0;
    await page.route(scriptFile('index'), (route) =>
      ++asked === 1 ? route.abort() : route.continue(),
    );
    await loadPage(page, '/');
    await expect.poll(() => asked).toBe(1);
    await expect(isInteractive(page)).toHaveCount(0);
    // The tap is answered at once, and the script comes and takes the menu over.
    await openMenu(page);
    await untilInteractive(page);
    expect(asked).toBe(2);
    await page.keyboard.press('Escape');
    await expect(sideMenu(page)).toBeHidden();
    await expect(page.getByRole('button', { name: site.chrome.openMenu })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
  });

  test('the script adopts the pre-rendered page instead of painting it again', async ({ page }) => {
    const errors = pageErrors(page);
    for (const [view, title] of Object.entries(viewHeadings)) {
      // The main script waits until the page's heading has been marked.
      const firstScript = await holdBack(page, scriptFile('index'));
      // Not until the load event: the preloaded fonts hold it past the first
      // paint, when the held script is asked for, and it would wait for that.
      await loadPage(page, viewPath(view), { waitUntil: 'domcontentloaded' });
      // A view other than home may still be on its way as a file then.
      const heading = await page.locator('main h1', { hasText: title }).elementHandle();
      firstScript.release();
      await untilAppAdopted(page);
      const same = await heading!.evaluate((h1) => h1 === document.querySelector('main h1'));
      expect(same, view).toBe(true);
      await page.unrouteAll();
    }
    expect(errors).toEqual([]);
  });

  test('reads fine with JavaScript off', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(site.practiceName);
    await expect(
      page.getByRole('heading', { name: site.home.whoCanBenefit.heading }),
    ).toBeVisible();
    await expect(page.locator('.card').last()).toBeVisible();
    await expect(
      page.getByRole('link', { name: site.contactDetails.phone.display }).first(),
    ).toBeVisible();
    await context.close();
  });
});

test('robots.txt points to the sitemap, which lists the site; the web manifest names the practice and its icons, which exist; the sharing image is a 1200 × 630 PNG', async ({
  request,
}) => {
  const robots = await request.get('/robots.txt');
  expect(robots.headers()['content-type']).toContain('text/plain');
  expect(await robots.text()).toContain(`Sitemap: ${site.url}sitemap.xml`);
  const sitemap = await request.get('/sitemap.xml');
  expect(sitemap.headers()['content-type']).toContain('xml');
  const listed = await sitemap.text();
  expect(listed).toContain(`<loc>${site.url}</loc>`);
  expect(listed, 'the answer page').not.toContain('answer');

  const response = await request.get('/manifest.webmanifest');
  expect(response.headers()['content-type']).toContain('application/manifest+json');
  const manifest = await response.json();
  expect(manifest.name).toBe(site.practiceName);
  for (const icon of manifest.icons as Array<{ src: string }>) {
    expect((await request.get(icon.src)).status(), icon.src).toBe(200);
  }

  const image = await request.get(site.seo.shareImage.src);
  expect(image.headers()['content-type']).toBe('image/png');
  const png = await image.body();
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
});

test('the page is sent with a strict security policy and is not cached', async ({ request }) => {
  const headers = (await request.get('/')).headers();
  const policy = headers['content-security-policy'] ?? '';
  const scriptSources = /script-src ([^;]*)/.exec(policy)?.[1] ?? '';
  expect(scriptSources).toContain("'self'");
  expect(scriptSources).not.toContain('unsafe-inline');
  expect(scriptSources).not.toContain('unsafe-eval');
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).toContain("object-src 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['permissions-policy']).toContain('camera=()');
  expect(headers['cache-control']).toBe('no-cache');
});

/** The hours of a weekday (0 is Sunday), as the content file gives them. */
const hoursOn = (weekday: Weekday) =>
  site.openingHours.find((hours) => hours.days.some((day) => day === weekday))!;

test('open now: says the clinic is open, with its closing time, on a weekday afternoon in London, and when it next opens, in the home contact block too; on a phone the line, filled in after the first paint, is as high either way', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const status = page.locator('.opening-status');
  // Wednesday 14:00 in London, within the weekday hours.
  await page.clock.setFixedTime(new Date('2026-11-25T14:00:00Z'));
  await page.goto('/#location');
  await expect(status, 'open').toHaveText(site.openingStatus.open(formatTime(hoursOn(3).closes)));
  const openHeight = (await status.boundingBox())!.height;
  // Saturday 16:00 in London, after Saturday's closing.
  const closed = site.openingStatus.closed(
    site.openingStatus.tomorrow,
    formatTime(hoursOn(0).opens),
  );
  await page.clock.setFixedTime(new Date('2026-11-28T16:00:00Z'));
  await loadPage(page, '/#location');
  await expect(status, 'closed').toHaveText(closed);
  // Two lines, where the open line takes one: the room was kept, nothing moved.
  expect((await status.boundingBox())!.height, 'as high').toBe(openHeight);
  await loadPage(page, '/');
  await expect(status, 'closed, on home').toHaveText(closed);
});

test.describe('the next Sunnah days', () => {
  /** Noon in London a month from now (inside the build's table), and the three days the page should show. */
  const dayMs = 24 * 60 * 60 * 1000;
  const today = new Date(Date.now() + 30 * dayMs).toISOString().slice(0, 10) as IsoDate;
  const noon = new Date(`${today}T12:00:00Z`);
  const expected = nextSunnahDays(today, sunnahDaysFrom(today, 90));

  async function expectNextThree(page: Page) {
    const days = page.locator('.sunnah-days time');
    await expect(days).toHaveText(expected.map(formatWeekdayDate));
    for (const [index, date] of expected.entries())
      await expect(days.nth(index)).toHaveAttribute('datetime', date);
    await expect(page.getByText(site.location.sunnahDays.note)).toBeVisible();
  }

  test('the location view lists them as dates on arrival before the app, the same on the view the app renders, and the app adopts the one filled in', async ({
    page,
  }) => {
    const errors = pageErrors(page);
    await page.clock.setFixedTime(noon);
    // On arrival, before the app.
    await openView(page, 'location');
    await expect(
      page.getByRole('heading', { level: 2, name: site.location.sunnahDays.heading }),
    ).toBeVisible();
    await expectNextThree(page);
    await untilAppAdopted(page);
    await expectNextThree(page);
    await openMenu(page);
    await sideMenu(page).getByRole('link', { name: 'Home' }).click();
    await expectViewShown(page, 'home');
    await openMenu(page);
    await sideMenu(page).getByRole('link', { name: 'Location' }).click();
    await expectViewShown(page, 'location');
    await expectNextThree(page);
    expect(errors).toEqual([]);
  });
});
