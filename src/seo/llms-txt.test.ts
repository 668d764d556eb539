import { describe, expect, it } from 'vitest';
import { site, type SiteContent } from '../content/site.ts';
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
    expect(text).toContain('- Monday – Friday: 9:00 AM - 8:30 PM');
    expect(text).toContain('- Saturday: 8:00 AM - 3:00 PM');
    expect(text).toContain(site.address.postcode);
    expect(text).toContain('within 24 hours');
    expect(text).toContain(site.disclaimer);
    expect(text).toContain('Full Name (required)');
    expect(text).toContain('Instagram Username (optional)');
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
    expect(text).not.toContain('Monday – Friday');
    expect(text).toContain('(https://cupping.example/#contact)');
  });
});
