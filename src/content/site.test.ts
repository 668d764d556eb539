import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pageNames, retentionMonths, site, viewTitles } from './site.ts';
import { practice } from '../../supabase/functions/_shared/content/practice.ts';
import * as visitorEmails from '../../supabase/functions/_shared/content/visitor-emails.ts';

describe('site content', () => {
  // The counts are the specification's; the words are the practitioner's to change.
  it.each([
    ['six who-can-benefit cards', site.home.whoCanBenefit.cards, 6],
    ['eight benefits', site.benefits.cards, 8],
  ] as const)(
    'has %s, each with an icon, a title of its own and a description',
    (_, cards, count) => {
      expect(cards).toHaveLength(count);
      expect(new Set(cards.map((card) => card.title)).size).toBe(cards.length);
      for (const card of cards) {
        expect(card.icon).not.toBe('');
        expect(card.title.trim()).not.toBe('');
        expect(card.description.length).toBeGreaterThan(20);
      }
    },
  );

  // CAP Code 12.1: citing research implies evidence of efficacy, which cupping does not have.
  it.each([
    ['who-can-benefit card', site.home.whoCanBenefit.cards],
    ['benefit', site.benefits.cards],
  ] as const)('never cites studies or research in a %s', (_, cards) => {
    for (const card of cards) {
      expect(card.description, card.title).not.toMatch(/\b(stud(y|ies)|research|proven)\b/i);
    }
  });

  it("gives the phone field an example that is not the clinic's own number", () => {
    expect(site.bookingForm.hints.phone).not.toContain(site.contactDetails.phone.display);
  });

  it('has three statements about Hijama', () => {
    expect(site.home.whatIs.statements).toHaveLength(3);
  });

  it('lists every page in the menu once, in the order of the page names', () => {
    expect(site.navigation.map((item) => item.id)).toEqual([...pageNames]);
  });

  it('gives every day once, each opening before it closes, on the 24-hour clock', () => {
    const days = site.openingHours.flatMap((hours) => [...hours.days]).sort();
    expect(days).toEqual([0, 1, 2, 3, 4, 5, 6]);
    for (const { label, opens, closes } of site.openingHours) {
      expect(opens, label).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
      expect(closes, label).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
      expect(opens < closes, label).toBe(true);
    }
  });

  it('has the five getting-here directions of the specification', () => {
    expect(site.location.gettingHere).toHaveLength(5);
  });

  it('states the reply promise in the contact details', () => {
    expect(site.contactDetails.replyPromise).toContain(`${practice.replyWithinHours} hours`);
  });

  it('says under the form who keeps the request, for how long, the rights and where to complain', () => {
    const { privacy } = site.bookingForm;
    expect(privacy).toContain(practice.name);
    expect(privacy).toContain(`${retentionMonths} months`);
    expect(privacy).toContain(site.contactDetails.email);
    expect(privacy).toMatch(/see, correct or delete/);
    expect(privacy).toContain('ico.org.uk');
  });

  it("gives the directions link the clinic's postcode", () => {
    const { directionsUrl, postcode } = site.address;
    expect(new URL(directionsUrl).searchParams.get('query')).toContain(postcode);
  });

  it('names each view in its title, then the practice', () => {
    expect(viewTitles.benefits).toBe('Benefits of Hijama · Rochester Hijama');
  });
});

/** Every string a value holds, calling its functions with a placeholder argument. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'function')
    return stringsOf((value as (...args: string[]) => unknown)('X', 'X'));
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

describe('the reply promise', () => {
  const sources = {
    'src/content/site.ts': readFileSync(new URL('./site.ts', import.meta.url), 'utf8'),
    'visitor-emails.ts': readFileSync(
      new URL('../../supabase/functions/_shared/content/visitor-emails.ts', import.meta.url),
      'utf8',
    ),
  };

  it.each(Object.entries(sources))(
    'is stated in %s only through replyWithinHours, never as a number typed out',
    (_, source) => {
      const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect(code.match(/\b\d+[\s-]*(?:hours?|hrs?|h)\b/gi) ?? []).toEqual([]);
    },
  );

  // "within N hours" is the promise; other hours are other facts (the aftercare's "for 24 hours").
  it('gives every sentence that promises a reply within hours the promise of practice.ts', () => {
    const stated = [...stringsOf(site), ...stringsOf(visitorEmails)].flatMap((text) =>
      [...text.matchAll(/within (\d+) hours/g)].map((match) => Number(match[1])),
    );
    expect(stated.length).toBeGreaterThan(5);
    expect(new Set(stated)).toEqual(new Set([practice.replyWithinHours]));
  });
});
