import { expect, test } from '@playwright/test';
import { site } from '../src/content/site.ts';
import { llmsTxt } from '../src/seo/llms-txt.ts';
import { openView, storedBookings, thankYou, uniqueEmail } from './fixtures.ts';
import { specifiedWords } from './specified-words.ts';

test('the booking form, a WebMCP tool the visitor confirms, is submitted by an assistant with the messages and thanks a person gets', async ({
  page,
}) => {
  await openView(page, 'contact');
  const form = page.locator('form.booking-form');
  // Its name, description and fields as a tool are webmcp.spec.ts's to check, as the browser reads them.
  expect(await form.getAttribute('toolautosubmit')).toBeNull(); // the visitor confirms

  // Values set on the elements directly, without typing, then a programmatic submit.
  const submitAsAnAssistant = (values: Record<string, string>) =>
    form.evaluate((element: HTMLFormElement, values) => {
      for (const [name, value] of Object.entries(values)) {
        (element.elements.namedItem(name) as HTMLInputElement).value = value;
      }
      element.requestSubmit();
    }, values);

  // Bad values: the specification's messages, as written (specified-words.ts).
  await submitAsAnAssistant({ fullName: 'Agent', phone: '123', email: 'not-an-address' });
  await expect(page.getByText(specifiedWords.fieldMessages.phoneInvalid)).toBeVisible();
  await expect(page.getByText(specifiedWords.fieldMessages.emailInvalid)).toBeVisible();
  await expect(page.getByRole('status')).toHaveText(site.bookingForm.fixFieldsAnnouncement(2));

  const email = uniqueEmail('agent');
  await submitAsAnAssistant({
    fullName: 'Agent Booked',
    phone: '07700 900123',
    email,
    instagram: '',
  });
  await expect(thankYou(page)).toBeVisible();
  expect(await storedBookings(email, 'full_name,phone,instagram')).toEqual([
    { full_name: 'Agent Booked', phone: '07700 900123', instagram: null },
  ]);
});

test('/llms.txt is served as text, as the content makes it', async ({ request }) => {
  const response = await request.get('/llms.txt');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('text/plain; charset=utf-8');
  // What it says is src/seo/llms-txt.test.ts's to check.
  const text = await response.text();
  expect(text).toBe(llmsTxt(site));
  expect(text, 'the answer page').not.toContain('answer');
});
