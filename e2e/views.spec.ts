import { expect, test, type Page } from '@playwright/test';
import { site, viewTitles } from '../src/content/site.ts';
import { formatTime } from '../src/lib/opening-hours.ts';
import { literally, openView, policyViolations, scrollToEnd, viewHeadings } from './fixtures.ts';
import { specifiedWords } from './specified-words.ts';

/** The footer: the address, phone, e-mail, hours, the Instagram link and the privacy link. */
async function expectFooter(page: Page) {
  const footer = page.locator('footer.site-footer');
  const { address, contactDetails } = site;
  await expect(footer.getByRole('link', { name: literally(address.road) })).toHaveAttribute(
    'href',
    address.directionsUrl,
  );
  await expect(footer).toContainText(address.postcode);
  await expect(footer.getByRole('link', { name: contactDetails.phone.display })).toBeVisible();
  await expect(footer.getByRole('link', { name: contactDetails.email })).toBeVisible();
  await expect(
    footer.getByRole('link', { name: literally(contactDetails.instagram.text) }),
  ).toHaveAttribute('href', contactDetails.instagram.url);
  for (const hours of site.openingHours) {
    await expect(footer).toContainText(hours.label);
    await expect(footer).toContainText(formatTime(hours.closes));
  }
  await expect(footer.getByRole('link', { name: site.chrome.privacyLink })).toBeVisible();
}

test('home shows the hero, what Hijama is, who can benefit, the practitioner, the sessions, Get in Touch and the footer', async ({
  page,
}) => {
  await openView(page, 'home');
  await expect(page.getByRole('heading', { level: 1 }), 'hero heading').toHaveText(
    site.practiceName,
  );
  await expect(
    page.locator('.hero').getByRole('link', { name: specifiedWords.bookButton }),
    'hero booking button',
  ).toBeVisible();

  const { whatIs, whoCanBenefit, practitioner, sessions } = site.home;
  const explained = page.getByRole('region', { name: whatIs.heading });
  await expect(explained.getByRole('heading', { level: 2 })).toHaveText(whatIs.heading);
  await expect(explained.getByRole('listitem'), 'the statements').toContainText([
    ...whatIs.statements,
  ]);

  const benefit = page.getByRole('region', { name: whoCanBenefit.heading });
  await expect(benefit.getByRole('heading', { level: 3 }), 'who-can-benefit cards').toHaveText(
    whoCanBenefit.cards.map((card) => card.title),
  );
  await expect(
    benefit.getByRole('link', { name: specifiedWords.bookNowButton }),
    'Book Your Session Now',
  ).toBeVisible();

  const about = page.getByRole('region', { name: practitioner.heading });
  await expect(about, 'practitioner').toContainText(practitioner.name);
  await expect(about, 'insurance').toContainText(practitioner.insurance);
  const prices = page.getByRole('region', { name: sessions.heading });
  for (const session of sessions.sessions) {
    await expect(prices, session.name).toContainText(session.name);
    await expect(prices, session.name).toContainText(
      sessions.terms(session.minutes, session.fromPounds),
    );
  }
  // Until the practice confirms them, the prices say they are examples.
  await expect(prices.getByText(sessions.placeholderNote)).toHaveCount(sessions.confirmed ? 0 : 1);

  const { phone, email, location } = site.contactDetails;
  const section = page.getByRole('region', { name: site.home.getInTouch.heading });
  for (const [name, href] of [
    [phone.display, `tel:${phone.international}`],
    [email, `mailto:${email}`],
    [literally(location), site.address.directionsUrl],
  ] as const) {
    await expect(section.getByRole('link', { name })).toHaveAttribute('href', href);
  }
  await expectFooter(page);
  // Its booking request links to the booking view.
  await section.getByRole('link', { name: site.home.getInTouch.intro.link }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(viewHeadings.contact);
});

test('benefits shows the notice before eight cards, staggered as they appear together, and each first-visit question opens by keyboard', async ({
  page,
}) => {
  await openView(page, 'benefits');
  const { heading, subtitle, cards: content, firstVisit } = site.benefits;
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
  await expect(page.getByText(subtitle)).toBeVisible();
  const cards = page.locator('.card');
  await expect(cards).toHaveCount(8);
  await expect(cards.getByRole('heading')).toHaveText(content.map((card) => card.title));
  await expect(cards.locator('p')).toHaveText(content.map((card) => card.description));
  for (const card of await cards.all()) {
    await expect(card.locator('svg'), 'card icon').toHaveCount(1);
  }
  // The cards that appear together are staggered.
  const delays = await cards.evaluateAll((all) =>
    all.slice(0, 4).map((card) => getComputedStyle(card).transitionDelay),
  );
  expect(new Set(delays).size, `delays ${delays.join(', ')}`).toBe(4);

  // Hijama complements and does not replace medical care, said before the cards.
  const notice = page.getByRole('complementary', { name: site.chrome.healthNotice });
  await expect(notice).toHaveText(site.disclaimer);
  const order = await page
    .locator('.disclaimer, .card-grid')
    .evaluateAll((elements) => elements.map((element) => element.className.split(' ')[0]));
  expect(order, 'disclaimer before the cards').toEqual(['disclaimer', 'card-grid']);

  const summaries = page.locator('details.question summary');
  await expect(summaries).toHaveText(firstVisit.questions.map((question) => question.question));
  for (const [index, { question, answer }] of firstVisit.questions.entries()) {
    // The plus drawn after the question is not read as part of its name.
    await expect(summaries.nth(index)).toHaveAccessibleName(question);
    await summaries.nth(index).focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('details.question').nth(index)).toHaveAttribute('open', '');
    await expect(page.locator('details.question').nth(index)).toContainText(answer[0]!);
  }
});

test('testimonials shows eight reviews with five stars, paragraphs, an initial, the name, Verified Client and the source, in two columns on a wide screen and one on a phone', async ({
  page,
}) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.setViewportSize({ width: 1280, height: 900 });
  await openView(page, 'testimonials');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(site.testimonials.heading);
  const reviews = page.locator('figure.review');
  await expect(reviews).toHaveCount(8);
  for (const review of await reviews.all()) {
    await expect(review.getByLabel(site.testimonials.ratingLabel(5))).toBeVisible();
    await expect(review.locator('.star-filled')).toHaveCount(5);
    expect(await review.locator('blockquote p').count()).toBeGreaterThanOrEqual(2);
    const name = (await review.locator('.review-name').textContent()) ?? '';
    await expect(review.locator('.review-initial')).toHaveText(name.charAt(0));
    await expect(review.getByText(site.testimonials.verifiedLabel)).toBeVisible();
    // The shipped reviews are samples, and say so where a real one shows its source and date.
    await expect(review.locator('.review-source')).toHaveText(site.testimonials.sourceWords.SAMPLE);
  }

  // Two columns on a wide screen, one on a phone.
  const firstTwo = () => Promise.all([0, 1].map((index) => reviews.nth(index).boundingBox()));
  const [first, second] = await firstTwo();
  expect(first!.y).toBe(second!.y);
  expect(second!.x).toBeGreaterThan(first!.x + first!.width);

  await page.setViewportSize({ width: 375, height: 800 });
  // Polled: the page is laid out for the new width a frame after the resize
  // (once read mid-way, the second card 20 px to the right of the first).
  await expect
    .poll(async () => {
      const [narrowFirst, narrowSecond] = await firstTwo();
      return {
        sameColumn: narrowFirst!.x === narrowSecond!.x,
        below: narrowSecond!.y > narrowFirst!.y + narrowFirst!.height,
      };
    })
    .toEqual({ sameColumn: true, below: true });
});

test('location shows the address, the opening hours, how to get here and the footer', async ({
  page,
}) => {
  await openView(page, 'location');
  const { location, address } = site;
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(location.heading);
  await expect(page.locator('address > *')).toHaveText([
    address.venue,
    address.building,
    address.road,
    address.town,
    address.city,
    address.postcode,
    address.country,
  ]);
  // Each row: the days, then the times as the specification writes them (9:00 AM - 8:30 PM).
  await expect(page.locator('.hours-row')).toHaveText(
    site.openingHours.map(
      ({ label, opens, closes }) =>
        new RegExp(`^${literally(label).source}\\s*${formatTime(opens)} - ${formatTime(closes)}$`),
    ),
  );
  await expect(page.getByRole('heading', { name: location.gettingHereHeading })).toBeVisible();
  await expect(page.locator('.directions li')).toHaveText(
    location.gettingHere.map((step) => step.text),
  );
  await expect(
    page.getByRole('link', { name: literally(location.directionsLink) }),
  ).toHaveAttribute('href', address.directionsUrl);
  await expectFooter(page);
});

test('contact shows the heading, the sessions and prices, the form with its privacy notice, and the contact block', async ({
  page,
}) => {
  await openView(page, 'contact');
  const { phone, email, location } = site.contactDetails;
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(site.contact.heading);
  await expect(page.getByText(site.contact.intro)).toBeVisible();
  const { sessions, terms } = site.home.sessions;
  await expect(page.locator('.page-header .price-item'), 'sessions and prices').toHaveText(
    sessions.map((session) => literally(terms(session.minutes, session.fromPounds))),
  );
  await expect(page.locator('form.booking-form')).toBeVisible();
  const details = page.getByRole('complementary', { name: site.contact.detailsHeading });
  for (const name of [phone.display, email, literally(location)])
    await expect(details.getByRole('link', { name })).toBeVisible();

  // Under the form: what is kept, why, for how long and how to have it deleted.
  await expect(page.locator('form .form-privacy')).toHaveText(site.bookingForm.privacy);
});

/** The buttons, links and fields shown smaller than 44 × 44 px, named with their size. */
function smallTapTargets(page: Page) {
  return page.evaluate(() =>
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
}

/**
 * Each "e-mail" of the visible text that the line breaks after its hyphen, with
 * the words around it: "e-" at a line's end reads as a typo.
 */
async function splitEMails(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const split: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node as Text;
      for (const match of text.data.matchAll(/e-\u2060?mail/gi)) {
        const range = document.createRange();
        range.setStart(text, match.index);
        range.setEnd(text, match.index + match[0].length);
        const lines = new Set(
          [...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => rect.top),
        );
        if (lines.size > 1)
          split.push(text.data.slice(Math.max(0, match.index - 20), match.index + 30));
      }
    }
    return split;
  });
}

test.describe('every view', () => {
  // Home's hero button is keyboard.spec.ts's: a visitor follows it there, by keyboard.
  for (const [view, button] of [
    ['home', `a:has-text("${specifiedWords.bookNowButton}")`],
    ['benefits', '.closing-call a'],
    ['testimonials', '.closing-call a'],
    ['location', '.closing-call a'],
    ['no-such-page', '.coming-soon a.button-primary'],
  ] as const) {
    test(`the booking button of ${view} (${button}) opens the booking view`, async ({ page }) => {
      await openView(page, view);
      await page.locator(button).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(viewHeadings.contact);
      await expect(page.getByLabel(site.bookingForm.labels.fullName)).toBeVisible();
      expect(new URL(page.url()).hash).toBe('#contact');
    });
  }

  for (const width of [320, 375, 768, 1280, 1920]) {
    test(`has no horizontal scroll at ${width} px, shows the menu button, never splits “e-mail” over two lines, ${width === 375 ? 'gives every button and link a tap target of at least 44 px, ' : ''}and runs under the security policy without a violation to its end`, async ({
      page,
    }) => {
      const violations = policyViolations(page);
      // Still, so that no card is measured mid-reveal at 95% of its size.
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.setViewportSize({ width, height: 800 });
      for (const view of ['home', 'benefits', 'testimonials', 'location', 'contact', 'elsewhere']) {
        await openView(page, view);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        expect(overflow, `${view} at ${width} px`).toBeLessThanOrEqual(0);
        await expect(
          page.getByRole('button', { name: site.chrome.openMenu }),
          `menu button on ${view}`,
        ).toBeVisible();
        if (width === 375)
          expect(await smallTapTargets(page), `small tap targets on ${view}`).toEqual([]);
        expect(await splitEMails(page), `"e-mail" split over two lines on ${view}`).toEqual([]);
        await scrollToEnd(page);
      }
      expect(violations).toEqual([]);
    });
  }
});

test('any other page name shows Coming Soon, with its title', async ({ page }) => {
  await openView(page, 'pricing');
  // The heading the specification names, written out (see specified-words.ts).
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    specifiedWords.comingSoonHeading,
  );
  await expect(page).toHaveTitle(viewTitles['coming-soon']);
  await page.getByRole('link', { name: site.comingSoon.homeLink }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(viewHeadings.home);
});
