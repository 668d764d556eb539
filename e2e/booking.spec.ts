import { expect, test, type Page } from '@playwright/test';
import { storedValue } from '../supabase/functions/_shared/core/booking-rules.ts';
import { site } from '../src/content/site.ts';
import { practice } from '../supabase/functions/_shared/content/practice.ts';
import { anonJsonHeaders } from '../server/testing/helpers.ts';
import {
  bookingPosts,
  expectBookingForm,
  expectFocusKept,
  fillBookingForm as fillForm,
  holdBack,
  literally,
  openView,
  pageErrors,
  postBooking,
  scriptFile,
  storedBookings,
  thankYou,
  uniqueEmail,
  untilAppAdopted,
  untilInteractive,
  viewHeadings,
} from './fixtures.ts';
import { specifiedWords } from './specified-words.ts';

// The buttons, the modal's title, the field messages and the failure message
// are the specification's own words, checked as written (specified-words.ts);
// the labels and the rest come from the content file.
const { labels } = site.bookingForm;
const { fieldMessages, submitFailure } = specifiedWords;

const submitButton = (page: Page) =>
  page
    .getByRole('button', { name: specifiedWords.bookButton })
    .or(page.getByRole('button', { name: specifiedWords.submittingButton }));

test('a visitor books a session: exactly the request hosted Supabase accepts, Submitting... with the inputs disabled while the answer is pending, thank-you modal, cleared form, focus kept inside the modal, and the row stored as typed, trimmed', async ({
  page,
}) => {
  const posts = bookingPosts(page);
  // The answer held back a moment, so the page can be seen while it waits.
  const answer = await holdBack(page, '**/rest/v1/bookings');
  const email = uniqueEmail('success');
  await openView(page, 'contact');
  await fillForm(page, {
    fullName: '  Aisha Khan ',
    phone: ' +44 (0) 1634 123 456 ',
    email: `  ${email}`,
    instagram: '',
  });
  await submitButton(page).click();

  await expect(page.getByRole('button', { name: specifiedWords.submittingButton })).toBeDisabled();
  for (const label of Object.values(labels)) {
    await expect(page.getByLabel(label), `${label} while sending`).toBeDisabled();
  }
  answer.release();
  const modal = thankYou(page);
  await expect(modal).toBeVisible();
  // What a screen reader says on opening, focus being on Close: the reply's promise too.
  await expect(modal).toHaveAccessibleDescription(site.bookingForm.success.paragraphs.join(' '));

  // A POST to /rest/v1/bookings (bookingPosts), with no query.
  expect(posts).toHaveLength(1);
  const post = posts[0]!;
  expect(new URL(post.url()).search).toBe('');
  for (const [name, value] of Object.entries(anonJsonHeaders))
    expect(await post.headerValue(name), name).toBe(value);
  expect((await post.headerValue('prefer')) ?? '').not.toContain('return=representation');
  const typed = { full_name: 'Aisha Khan', phone: '+44 (0) 1634 123 456', email, instagram: null };
  expect(post.postDataJSON()).toEqual({
    ...typed,
    id: expect.stringMatching(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    ),
  });
  await expect(modal.locator('.modal-body p')).toHaveText([...site.bookingForm.success.paragraphs]);
  // The specification's promise: the practice reaches out within so many hours.
  await expect(modal).toContainText(`${practice.replyWithinHours} hours`);
  for (const label of Object.values(labels)) {
    await expect(page.getByLabel(label)).toHaveValue('');
  }

  expect(await storedBookings(email)).toEqual([
    expect.objectContaining({ ...typed, created_at: expect.any(String) }),
  ]);

  await expectFocusKept(page, 'dialog.modal', Array(5).fill('Tab'));
  await modal.getByRole('button', { name: specifiedWords.closeButton, exact: true }).click();
  await expect(modal).toBeHidden();
  await expect(page.getByLabel(labels.fullName)).toBeFocused();
});

test('shows the messages of the specification beside their fields and sends nothing', async ({
  page,
}) => {
  const posts = bookingPosts(page);
  await openView(page, 'contact');
  await submitButton(page).click();

  const name = page.getByLabel(labels.fullName);
  for (const message of ['fullNameRequired', 'phoneRequired', 'emailRequired'] as const)
    await expect(page.getByText(fieldMessages[message])).toBeVisible();
  await expect(name).toBeFocused();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toHaveAccessibleDescription(literally(fieldMessages.fullNameRequired));
  await expect(page.getByRole('status')).toHaveText(site.bookingForm.fixFieldsAnnouncement(3));
  // Not read out again at each correction, over the typing: the refused send's count stays.
  await name.fill('Aisha');
  await expect(page.getByText(fieldMessages.fullNameRequired)).toBeHidden();
  await expect(page.getByRole('status')).toHaveText(site.bookingForm.fixFieldsAnnouncement(3));

  await fillForm(page, { fullName: 'Aisha', phone: 'abc1234567', email: 'foo@bar' });
  await expect(page.getByText(fieldMessages.fullNameRequired)).toBeHidden();
  await expect(name).not.toHaveAttribute('aria-invalid');
  await submitButton(page).click();
  await expect(page.getByText(fieldMessages.phoneInvalid)).toBeVisible();
  await expect(page.getByText(fieldMessages.emailInvalid)).toBeVisible();
  await expect(page.getByLabel(labels.phone)).toBeFocused();
  await expect(page.getByLabel(labels.email)).toHaveAccessibleDescription(
    fieldMessages.emailInvalid,
  );

  expect(posts).toHaveLength(0);
});

test('a double click sends one request and stores one row, its Instagram handle normalised (no @, lower case) and never autocorrected, and the thanks close with Escape', async ({
  page,
}) => {
  const posts = bookingPosts(page);
  const email = uniqueEmail('double');
  await openView(page, 'contact');
  // A phone's keyboard does not turn a handle such as "amd" into "and".
  await expect(page.locator('#booking-instagram')).toHaveAttribute('autocorrect', 'off');
  await fillForm(page, {
    fullName: 'Double Click',
    phone: '07700 900123',
    email,
    instagram: ' @Omar.H ',
  });
  await submitButton(page).dblclick();
  await expect(thankYou(page)).toBeVisible();
  // The thank-you modal closes with Escape.
  await page.keyboard.press('Escape');
  await expect(thankYou(page)).toBeHidden();
  expect(posts).toHaveLength(1);
  expect(await storedBookings(email, 'instagram')).toEqual([
    { instagram: storedValue('instagram', '@Omar.H') },
  ]);
});

/** What the server answers: a failure of its own, the database out of reach, or nothing. */
const failedAnswers = [
  ['a server error', { status: 500, headers: {}, code: 'XX000', message: 'internal error' }],
  [
    'a database outage',
    {
      status: 503,
      headers: { 'Retry-After': '5' },
      code: 'PGRST000',
      message: 'Database connection error. Retrying the connection.',
    },
  ],
  ['a network loss', undefined],
] as const;

for (const [situation, answer] of failedAnswers) {
  test(`${situation} shows the failure message, logs the error and keeps what was typed`, async ({
    page,
  }) => {
    const errors = pageErrors(page);
    await page.route('**/rest/v1/bookings', (route) =>
      answer
        ? route.fulfill({
            status: answer.status,
            headers: answer.headers,
            contentType: 'application/json',
            body: JSON.stringify({
              code: answer.code,
              message: answer.message,
              details: null,
              hint: null,
            }),
          })
        : route.abort('internetdisconnected'),
    );
    const email = uniqueEmail(answer ? `status-${answer.status}` : 'offline');
    await openView(page, 'contact');
    const typed = { fullName: 'Keep Me', phone: '07700 900123', email, instagram: '@keep' };
    await fillForm(page, typed);
    await submitButton(page).click();

    const alert = page.getByRole('alert');
    await expect(alert).toHaveText(submitFailure);
    await expect(alert.locator('svg')).toHaveCount(1);
    // And another way to reach the practice, should it keep failing.
    await expect(
      page
        .locator('.form-failure-fallback')
        .getByRole('link', { name: site.contactDetails.phone.display }),
    ).toHaveAttribute('href', `tel:${site.contactDetails.phone.international}`);
    // Read out with the failure it follows, which takes the focus.
    await expect(alert).toHaveAccessibleDescription(
      new RegExp(`^${site.bookingForm.failureFallback} ${site.contactDetails.phone.display}`),
    );
    await expectBookingForm(page, typed);
    expect(errors.some((text) => text.includes('could not be sent'))).toBe(true);
    expect(await storedBookings(email)).toHaveLength(0);

    // Editing a field clears the failure.
    await page.getByLabel(labels.fullName).fill('Keep Me Too');
    await expect(page.getByRole('alert')).toBeHidden();
  });
}

test('what was typed before the app came is kept when the visitor taps a link to the booking page while on it, or goes back and forward, before the app comes', async ({
  page,
}) => {
  // The app's code held back: the booking page is on screen from the HTML, shown by the first script.
  const app = await holdBack(page, scriptFile('start-app'));
  await openView(page, 'home');
  await page.locator('.hero a.button-primary').click();
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(viewHeadings.contact);
  await fillForm(page, { fullName: 'Typed Early', phone: '07700 900125' });
  // The footer's link to the privacy notice, under the form: the page stays as it is.
  await page.getByRole('link', { name: site.chrome.privacyLink }).click();
  await expect(heading).toBeFocused();
  await expect(page.getByLabel(labels.fullName)).toHaveValue('Typed Early');
  // One step back is home: the link made no second entry in the history.
  await page.goBack();

  // The app comes on home, where it renders home in the booking page's place.
  await expect.poll(() => app.wasAsked()).toBe(true);
  app.release();
  await expect(heading).toHaveText(viewHeadings.home);
  await page.goForward();
  await expect(heading).toHaveText(viewHeadings.contact);
  await expectBookingForm(page, { fullName: 'Typed Early', phone: '07700 900125' });
});

test('a browser without crypto.randomUUID, AbortSignal.timeout and requestSubmit, as iOS 15 is, books a session, sent before the app came', async ({
  page,
}) => {
  await page.addInitScript(() => {
    delete (Crypto.prototype as Partial<Crypto>).randomUUID;
    delete (AbortSignal as Partial<typeof AbortSignal>).timeout;
    delete (HTMLFormElement.prototype as Partial<HTMLFormElement>).requestSubmit;
  });
  const email = uniqueEmail('ios15');
  // The send held until the app comes, which makes it then.
  const app = await holdBack(page, scriptFile('start-app'));
  await openView(page, 'contact');
  expect(
    await page.evaluate(
      () =>
        'randomUUID' in crypto || 'timeout' in AbortSignal || 'requestSubmit' in document.forms[0]!,
    ),
  ).toBe(false);
  await fillForm(page, { fullName: 'Older Phone', phone: '07700 900126', email });
  await submitButton(page).click();
  await expect.poll(() => app.wasAsked()).toBe(true);
  app.release();
  await expect(thankYou(page)).toBeVisible();
  expect(await storedBookings(storedValue('email', email), 'full_name')).toEqual([
    { full_name: 'Older Phone' },
  ]);
});

test('a retry after a lost answer stores one row, after a reload too, which keeps what was typed until it is sent', async ({
  page,
}) => {
  const posts = bookingPosts(page);
  let lost = 0;
  await page.route('**/rest/v1/bookings', async (route) => {
    if (lost === 2) return route.continue();
    lost += 1;
    // The request reaches the server and is stored, but the answer never comes back.
    await route.fetch();
    await route.abort('connectionreset');
  });
  const email = uniqueEmail('retry');
  const typed = { fullName: 'Lost Answer', phone: '07700 900123', email, instagram: '' };
  await openView(page, 'contact');
  await fillForm(page, typed);
  await submitButton(page).click();
  await expect(page.getByRole('alert')).toHaveText(submitFailure);
  expect(await storedBookings(email)).toHaveLength(1);
  await submitButton(page).click();
  await expect(page.getByRole('alert')).toHaveText(submitFailure);

  // As a phone's browser reloads a tab it had put away: the pre-rendered form, before the app.
  await page.reload();
  await untilInteractive(page);
  await expectBookingForm(page, typed);
  await submitButton(page).click();
  await expect(thankYou(page)).toBeVisible();
  expect(posts).toHaveLength(3);
  expect(new Set(posts.map((post) => post.postDataJSON().id)).size).toBe(1);
  expect(await storedBookings(email)).toHaveLength(1);

  // Sent: nothing is kept.
  await page.reload();
  await untilInteractive(page);
  await expect(page.getByLabel(labels.fullName)).toHaveValue('');
});

test("what was typed before the page's first script came is kept across a reload", async ({
  page,
}) => {
  const firstScript = await holdBack(page, scriptFile('index'));
  await page.goto('/#contact', { waitUntil: 'domcontentloaded' });
  await fillForm(page, { fullName: 'Slow Connection', phone: '07700 900127' });
  firstScript.release();
  await untilInteractive(page);
  await page.unrouteAll();
  await page.reload();
  await untilInteractive(page);
  await expectBookingForm(page, { fullName: 'Slow Connection', phone: '07700 900127' });
});

test('what was typed comes back after a reload on another page, in the form the app draws', async ({
  page,
}) => {
  await openView(page, 'contact');
  await fillForm(page, { fullName: 'Kept Across', phone: '07700 900124' });
  await openView(page, 'home');
  await untilAppAdopted(page);
  await page.locator('.hero').getByRole('link', { name: specifiedWords.bookButton }).click();
  await expectBookingForm(page, { fullName: 'Kept Across', phone: '07700 900124', email: '' });
});

test('a visitor who leaves the booking page while it sends finds the outcome on coming back: the failure with what was typed, then the thanks (and the assistant that sent it its answer), one row stored', async ({
  page,
}) => {
  const posts = bookingPosts(page);
  const errors = pageErrors(page);
  // Each send held until the test answers it, once the visitor has left.
  const answers: Array<(how: 'lost' | 'through') => Promise<void>> = [];
  await page.route('**/rest/v1/bookings', (route) => {
    answers.push((how) =>
      how === 'lost' ? route.abort('internetdisconnected') : route.continue(),
    );
  });
  const heading = page.getByRole('heading', { level: 1 });
  await openView(page, 'home');
  await page.locator('.hero').getByRole('link', { name: specifiedWords.bookButton }).click();
  const email = uniqueEmail('left');
  const typed = { fullName: 'Away Awhile', phone: '07700 900123', email, instagram: '' };
  await fillForm(page, typed);

  /**
   * Sends, leaves with Back while it says Submitting..., has the send end so, comes back.
   * The second send is a browser assistant's (WebMCP): its answer must come too.
   */
  async function sendAndLeave(how: 'lost' | 'through') {
    const sends = answers.length + 1;
    if (how === 'lost') await submitButton(page).click();
    else {
      // Twice: the second while the first is on its way, answered with its outcome.
      await page.locator('form').evaluate((form) => {
        const asked = window as { agentReplies?: Promise<string>[] };
        asked.agentReplies = [];
        for (let i = 0; i < 2; i += 1) {
          const submit = new SubmitEvent('submit', { bubbles: true, cancelable: true });
          Object.assign(submit, {
            agentInvoked: true,
            respondWith: (reply: Promise<string>) => asked.agentReplies!.push(reply),
          });
          form.dispatchEvent(submit);
        }
      });
    }
    await expect(page.getByRole('button', { name: specifiedWords.submittingButton })).toBeVisible();
    await expect.poll(() => answers.length).toBe(sends);
    await page.goBack();
    await expect(heading).toHaveText(viewHeadings.home);
    const answered =
      how === 'lost' ? page.waitForEvent('requestfailed') : page.waitForEvent('requestfinished');
    await answers.at(-1)!(how);
    await answered;
    await page.goForward();
    await expect(heading).toHaveText(viewHeadings.contact);
  }

  await sendAndLeave('lost');
  await expect(page.getByRole('alert')).toHaveText(submitFailure);
  await expectBookingForm(page, typed);
  expect(errors.some((text) => text.includes('could not be sent'))).toBe(true);

  await sendAndLeave('through');
  await expect(thankYou(page)).toBeVisible();
  const agentReplies = await page.evaluate(() =>
    Promise.all((window as { agentReplies?: Promise<string>[] }).agentReplies!),
  );
  expect(agentReplies).toEqual(Array(2).fill(site.bookingForm.agentTool.replies.sent));
  expect(posts[0]!.postDataJSON().id).toBe(posts[1]!.postDataJSON().id);
  expect(await storedBookings(email)).toHaveLength(1);
});

test('a fourth request for one e-mail address within the hour is refused by the database, plainly, keeping what was typed', async ({
  page,
  baseURL,
}) => {
  const email = uniqueEmail('busy');
  for (let i = 0; i < 3; i += 1) {
    expect((await postBooking(baseURL!, { full_name: 'Busy Person', email })).status).toBe(201);
  }
  await openView(page, 'contact');
  await fillForm(page, { fullName: 'Busy Person', phone: '07700 900123', email });
  const answer = page.waitForResponse((response) => response.url().endsWith('/rest/v1/bookings'));
  await submitButton(page).click();
  expect((await answer).status()).toBe(429);
  const alert = page.getByRole('alert');
  await expect(alert).toHaveText(site.bookingForm.throttled);
  // The number to call, as a link a phone dials, read out with the refusal.
  await expect(alert).toHaveAccessibleDescription(
    new RegExp(`^${site.bookingForm.failureFallback} ${site.contactDetails.phone.display}`),
  );
  await expectBookingForm(page, { fullName: 'Busy Person', email });
  expect(await storedBookings(email)).toHaveLength(3);
});

test('a robot that fills the hidden field is thanked like a person, the thanks closing on their backdrop, and nothing is stored', async ({
  page,
}) => {
  const posts = bookingPosts(page);
  const email = uniqueEmail('robot');
  await openView(page, 'contact');
  await fillForm(page, { fullName: 'Spam Bot', phone: '07700 900123', email });
  // People never see the field (nor does assistive technology); a robot filling every input does.
  await expect(page.locator('input[name="website"]')).not.toBeInViewport();
  await expect(page.getByRole('textbox', { name: site.bookingForm.trap.label })).toHaveCount(0);
  await page.locator('input[name="website"]').fill('https://spam.example', { force: true });
  await submitButton(page).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  // The thanks close on their backdrop, once past the double-click guard:
  // clicked until they do, instead of waiting out the guard.
  await expect(async () => {
    await page.mouse.click(20, 20);
    await expect(page.getByRole('dialog')).toBeHidden({ timeout: 200 });
  }).toPass();
  expect(posts).toHaveLength(1);
  expect(posts[0]!.postDataJSON()).toMatchObject({ email, website: 'https://spam.example' });
  expect(await storedBookings(email)).toHaveLength(0);
});
