import { expect, test } from '@playwright/test';
import { openView } from './fixtures.ts';

test.describe('home', () => {
  test('shows the hero with the practice name and a booking button', async ({ page }) => {
    await openView(page, 'home');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Rochester Hijama');
    await expect(
      page.locator('.hero').getByRole('link', { name: 'Book Your Session' }),
    ).toBeVisible();
  });

  test('explains Hijama in three statements', async ({ page }) => {
    await openView(page, 'home');
    const section = page.getByRole('region', { name: 'What is Hijama Cupping?' });
    await expect(section.getByRole('heading', { level: 2 })).toHaveText('What is Hijama Cupping?');
    await expect(section.getByRole('listitem')).toHaveCount(3);
  });

  test('lists the six who-can-benefit cards and a Book Your Session Now button', async ({
    page,
  }) => {
    await openView(page, 'home');
    const section = page.getByRole('region', { name: 'Who Can Benefit?' });
    await expect(section.getByRole('heading', { level: 3 })).toHaveText([
      'Athletes',
      'Office Workers',
      'Chronic Pain Sufferers',
      'People with Stress or Anxiety',
      'Fitness Enthusiasts',
      'Islamic Tradition',
    ]);
    await expect(section.getByRole('link', { name: 'Book Your Session Now' })).toBeVisible();
  });

  test('gives phone, e-mail and location as links in Get in Touch', async ({ page }) => {
    await openView(page, 'home');
    const section = page.getByRole('region', { name: 'Get in Touch' });
    await expect(section.getByRole('link', { name: '07700 900 123' })).toHaveAttribute(
      'href',
      'tel:+447700900123',
    );
    await expect(
      section.getByRole('link', { name: 'bookings@rochester-hijama.example' }),
    ).toHaveAttribute('href', 'mailto:bookings@rochester-hijama.example');
    await expect(section.getByRole('link', { name: /Rochester, United Kingdom/ })).toHaveAttribute(
      'href',
      /maps/,
    );
  });
});

test.describe('benefits', () => {
  test('shows the title, subtitle and eight cards with icon, title and description', async ({
    page,
  }) => {
    await openView(page, 'benefits');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Benefits of Hijama');
    await expect(
      page.getByText('Discover the transformative effects of traditional cupping therapy'),
    ).toBeVisible();
    const cards = page.locator('.card');
    await expect(cards).toHaveCount(8);
    await expect(cards.getByRole('heading')).toHaveText([
      'Relieve Muscle Tension',
      'Lower Blood Pressure',
      'Remove Deoxygenated Blood',
      'Relieve Headaches',
      'Improve Blood Flow',
      'Soothe Eczema',
      'Reduce Inflammation',
      'Boost Immune System',
    ]);
    for (const card of await cards.all()) {
      await expect(card.locator('svg')).toHaveCount(1);
      await expect(card.locator('p')).not.toBeEmpty();
    }
  });

  test('says that Hijama complements and does not replace medical care', async ({ page }) => {
    await openView(page, 'benefits');
    await expect(page.getByText(/does not replace diagnosis or treatment/)).toBeVisible();
  });
});

test.describe('testimonials', () => {
  test('shows eight reviews with five stars, paragraphs, an initial, the name and Verified Client', async ({
    page,
  }) => {
    await openView(page, 'testimonials');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Client Testimonials');
    const reviews = page.locator('figure.review');
    await expect(reviews).toHaveCount(8);
    for (const review of await reviews.all()) {
      await expect(review.getByLabel('Rated 5 out of 5')).toBeVisible();
      await expect(review.locator('.star-filled')).toHaveCount(5);
      expect(await review.locator('blockquote p').count()).toBeGreaterThanOrEqual(2);
      const name = (await review.locator('.review-name').textContent()) ?? '';
      await expect(review.locator('.review-initial')).toHaveText(name.charAt(0));
      await expect(review.getByText('Verified Client')).toBeVisible();
    }
  });

  test('lays the reviews out in two columns on a wide screen and one on a phone', async ({
    page,
  }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize({ width: 1280, height: 900 });
    await openView(page, 'testimonials');
    const [first, second] = await Promise.all(
      [0, 1].map((index) => page.locator('figure.review').nth(index).boundingBox()),
    );
    expect(first!.y).toBe(second!.y);
    expect(second!.x).toBeGreaterThan(first!.x + first!.width);

    await page.setViewportSize({ width: 375, height: 800 });
    const [narrowFirst, narrowSecond] = await Promise.all(
      [0, 1].map((index) => page.locator('figure.review').nth(index).boundingBox()),
    );
    expect(narrowFirst!.x).toBe(narrowSecond!.x);
    expect(narrowSecond!.y).toBeGreaterThan(narrowFirst!.y + narrowFirst!.height);
  });
});

test.describe('location', () => {
  test('shows the address, the opening hours and how to get here', async ({ page }) => {
    await openView(page, 'location');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Visit Us');
    const address = page.locator('address');
    for (const part of [
      'Health & Beauty',
      'Health Club',
      'Road',
      'Chatham',
      'Rochester',
      'ME4',
      'United Kingdom',
    ]) {
      await expect(address).toContainText(part);
    }
    await expect(page.locator('.hours-row')).toHaveText([
      /Monday – Friday\s*9:00 AM - 8:30 PM/,
      /Saturday\s*8:00 AM - 3:00 PM/,
      /Sunday\s*8:00 AM - 3:00 PM/,
    ]);
    await expect(page.getByRole('heading', { name: 'Getting Here' })).toBeVisible();
    await expect(page.locator('.directions li')).toHaveText([
      '10 minutes drive from Rochester Station',
      '15 minutes from Chatham Station',
      'Buses 101, 155 and 190 stop nearby on the main road',
      'Free parking on premises',
      'Easy access from the A2 and M2',
    ]);
    await expect(page.getByRole('link', { name: /Get directions/ })).toHaveAttribute(
      'href',
      /maps.*Chatham/,
    );
  });
});

test.describe('contact', () => {
  test('shows the heading, an intro, the form and the contact block', async ({ page }) => {
    await openView(page, 'contact');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Book Your Session');
    await expect(page.getByText(/within 24 hours/).first()).toBeVisible();
    const details = page.getByRole('complementary', { name: 'Contact details' });
    await expect(details.getByRole('link', { name: '07700 900 123' })).toBeVisible();
    await expect(
      details.getByRole('link', { name: 'bookings@rochester-hijama.example' }),
    ).toBeVisible();
    await expect(details.getByText('Rochester, United Kingdom')).toBeVisible();
  });

  test('says under the form what is kept, why, for how long and how to have it deleted', async ({
    page,
  }) => {
    await openView(page, 'contact');
    const notice = page.locator('form .form-privacy');
    await expect(notice).toContainText('only to reply to this request');
    await expect(notice).toContainText('after 12 months');
    await expect(notice).toContainText(
      'To see or delete them sooner, e-mail bookings@rochester-hijama.example',
    );
  });
});

test.describe('every view', () => {
  for (const [view, button] of [
    ['home', '.hero a.button-primary'],
    ['home', 'a:has-text("Book Your Session Now")'],
    ['benefits', '.closing-call a'],
    ['testimonials', '.closing-call a'],
    ['location', '.closing-call a'],
    ['no-such-page', '.coming-soon a.button-primary'],
  ] as const) {
    test(`the booking button of ${view} (${button}) opens the booking view`, async ({ page }) => {
      await openView(page, view);
      await page.locator(button).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Book Your Session');
      await expect(page.getByLabel('Full Name')).toBeVisible();
      expect(new URL(page.url()).hash).toBe('#contact');
    });
  }

  for (const width of [320, 375, 768, 1280, 1920]) {
    test(`has no horizontal scroll at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      for (const view of ['home', 'benefits', 'testimonials', 'location', 'contact', 'elsewhere']) {
        await openView(page, view);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        expect(overflow, `${view} at ${width} px`).toBeLessThanOrEqual(0);
      }
    });
  }

  test('gives every button and link a tap target of at least 44 px on a phone', async ({
    page,
  }) => {
    // Still, so that no card is measured mid-reveal at 95% of its size.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize({ width: 375, height: 800 });
    for (const view of ['home', 'benefits', 'testimonials', 'location', 'contact']) {
      await openView(page, view);
      const small = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('a, button, input')]
          .filter(
            (element) =>
              element.offsetParent !== null &&
              !element.classList.contains('skip-link') &&
              !element.closest('[aria-hidden="true"]'),
          )
          .map((element) => ({
            text: element.textContent?.trim() || element.getAttribute('aria-label'),
            box: element.getBoundingClientRect(),
          }))
          .filter(({ box }) => box.height < 44 || box.width < 44)
          .map(({ text, box }) => `${text} (${Math.round(box.width)}×${Math.round(box.height)})`),
      );
      expect(small, view).toEqual([]);
    }
  });
});

test('any other page name shows Coming Soon', async ({ page }) => {
  await openView(page, 'pricing');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Coming Soon');
  await page.getByRole('link', { name: 'Back to the home page' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Rochester Hijama');
});
