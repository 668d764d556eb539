import { describe, expect, it } from 'vitest';
import { site, type SiteContent } from '../content/site.ts';
import { formatTime } from '../lib/opening-hours.ts';
import { llmsTxt } from './llms-txt.ts';

describe('llmsTxt', () => {
  it('follows the llms.txt layout: a title, a summary, sections of links', () => {
    const text = llmsTxt(site);
    expect(text.startsWith(`# ${site.practiceName}\n\n> `)).toBe(true);
    expect(text).toMatch(/^## Booking$/m);
    expect(text).toContain(`- [Book a session](${site.url}#contact)`);
  });

  it('takes the name, address, hours, booking link, reply promise and disclaimer from the content', () => {
    const text = llmsTxt(site);
    for (const { label, opens, closes } of site.openingHours) {
      expect(text).toContain(`- ${label}: ${formatTime(opens)} - ${formatTime(closes)}`);
    }
    expect(text).toContain(site.address.postcode);
    expect(text).toContain(site.contactDetails.replyPromise.replaceAll('\u2060', ''));
    expect(text).toContain(site.disclaimer);
  });

  it('writes “e-mail” as plain text, without the page’s invisible word joiner', () => {
    expect(site.contactDetails.replyPromise).toContain('e-\u2060mail');
    expect(llmsTxt(site)).not.toContain('\u2060');
    expect(llmsTxt(site)).toContain('by e-mail or Instagram message.');
  });

  it('lists the fields the form asks for, each once, saying whether it is required', () => {
    const fields = llmsTxt(site)
      .split('\n')
      .filter((line) => /^ {2}- .+ \((required|optional)\)$/.test(line));
    expect(fields).toEqual([
      `  - ${site.bookingForm.labels.fullName} (required)`,
      `  - ${site.bookingForm.labels.phone} (required)`,
      `  - ${site.bookingForm.labels.email} (required)`,
      // The label's own "(Optional)" is not said twice.
      expect.stringMatching(/^ {2}- [^()]+ \(optional\)$/),
    ]);
  });

  it('follows a change of the content', () => {
    const changed = {
      ...site,
      practiceName: 'Medway Cupping Studio',
      url: 'https://cupping.example/',
      openingHours: [{ label: 'Thursday', days: [4], opens: '10:00', closes: '18:15' }],
    } as unknown as SiteContent;
    const text = llmsTxt(changed);
    expect(text.startsWith('# Medway Cupping Studio')).toBe(true);
    expect(text).toContain('- Thursday: 10:00 AM - 6:15 PM');
    for (const { label } of site.openingHours) expect(text).not.toContain(`- ${label}:`);
    expect(text).toContain('(https://cupping.example/#contact)');
  });
});
