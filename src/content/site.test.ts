import { describe, expect, it } from 'vitest';
import { pageNames, site } from './site.ts';

describe('site content', () => {
  it('has the six who-can-benefit cards of the specification, in order', () => {
    expect(site.home.whoCanBenefit.cards.map((card) => card.title)).toEqual([
      'Athletes',
      'Office Workers',
      'Chronic Pain Sufferers',
      'People with Stress or Anxiety',
      'Fitness Enthusiasts',
      'Islamic Tradition',
    ]);
  });

  it('has three statements about Hijama', () => {
    expect(site.home.whatIs.statements).toHaveLength(3);
  });

  it('has the eight benefits of the specification, each with an icon and a description', () => {
    expect(site.benefits.cards.map((card) => card.title)).toEqual([
      'Relieve Muscle Tension',
      'Lower Blood Pressure',
      'Remove Deoxygenated Blood',
      'Relieve Headaches',
      'Improve Blood Flow',
      'Soothe Eczema',
      'Reduce Inflammation',
      'Boost Immune System',
    ]);
    for (const card of site.benefits.cards) {
      expect(card.icon).not.toBe('');
      expect(card.description.length).toBeGreaterThan(20);
    }
  });

  it('has eight testimonials, all rated five, each with at least one paragraph', () => {
    expect(site.testimonials.reviews).toHaveLength(8);
    for (const review of site.testimonials.reviews) {
      expect(review.rating).toBe(5);
      expect(review.name.trim()).not.toBe('');
      expect(review.content.split(/\n\s*\n/).length).toBeGreaterThanOrEqual(1);
    }
  });

  it('lists every page in the menu once, in the order of the page names', () => {
    expect(site.navigation.map((item) => item.id)).toEqual([...pageNames]);
  });

  it('keeps the opening hours of the specification and covers every day once', () => {
    const days = site.openingHours.flatMap((hours) => [...hours.days]).sort();
    expect(days).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(site.openingHours.map(({ opens, closes }) => `${opens}-${closes}`)).toEqual([
      '09:00-20:30',
      '08:00-15:00',
      '08:00-15:00',
    ]);
  });

  it('has the five getting-here directions of the specification', () => {
    expect(site.location.gettingHere).toHaveLength(5);
  });

  it('promises a reply within 24 hours', () => {
    expect(site.contactDetails.replyPromise).toContain('24 hours');
  });
});
