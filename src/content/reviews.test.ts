import { beforeBookingPlaceholdersLeft, practitioner, sessionPrices } from './before-booking.ts';
import { describe, expect, it } from 'vitest';
import { practice } from '../../supabase/functions/_shared/content/practice.ts';
import { placeholdersLeft } from '../../supabase/functions/_shared/content/placeholders.ts';
import {
  launchPlaceholders,
  ratingSummaryWords,
  reviews,
  sampleReviewsLeft,
  type Testimonial,
} from './reviews.ts';

const real: Testimonial = {
  name: 'Amina K.',
  rating: 5,
  content: 'Calm and clear.',
  source: { kind: 'in-person', date: '2026-06-11' },
};

describe('reviews', () => {
  it('refuses a review without its source, at compile time', () => {
    // @ts-expect-error a review must say where it was given
    const unsourced: Testimonial = { name: 'No Source', rating: 5, content: 'Great.' };
    expect(unsourced.name).toBe('No Source');
  });

  it('ships eight SAMPLE reviews, each named on the launch list', () => {
    expect(reviews).toHaveLength(8);
    expect(reviews.every((review) => review.source.kind === 'SAMPLE')).toBe(true);
    const lines = sampleReviewsLeft(reviews);
    expect(lines).toHaveLength(8);
    reviews.forEach((review, index) => expect(lines[index]).toContain(`"${review.name}"`));
  });

  it('lists the PLACEHOLDER facts first, then every SAMPLE review', () => {
    const sample: Testimonial = { ...real, name: 'Sample S.', source: { kind: 'SAMPLE' } };
    const list = launchPlaceholders(practice, undefined, [real, sample]);
    expect(list).toEqual([
      ...placeholdersLeft(practice, undefined),
      ...beforeBookingPlaceholdersLeft({ practitioner, sessionPrices }),
      expect.stringContaining('The review by "Sample S." is a SAMPLE'),
    ]);
  });

  it("lists each of the practitioner's texts still marked PLACEHOLDER, and the prices until confirmed", () => {
    const left = beforeBookingPlaceholdersLeft({
      practitioner: {
        name: 'PLACEHOLDER Name',
        role: 'Practitioner',
        training: ['Diploma', 'PLACEHOLDER: first aid'],
      },
      sessionPrices: { confirmed: false },
    });
    expect(left).toEqual([
      expect.stringMatching(
        /^The practitioner's name is still a PLACEHOLDER: replace practitioner\.name in/,
      ),
      expect.stringMatching(/^The practitioner's training\[1\] is still a PLACEHOLDER/),
      expect.stringMatching(/^The sessions' lengths and prices are still examples/),
    ]);
    expect(
      beforeBookingPlaceholdersLeft({
        practitioner: { name: 'Maryam' },
        sessionPrices: { confirmed: true },
      }),
    ).toEqual([]);
  });

  it('lists no review once every one has a real source', () => {
    expect(sampleReviewsLeft([real])).toEqual([]);
  });

  it('says the rating summary as its source counts it', () => {
    const url = 'https://maps.google.com/?cid=1';
    expect(ratingSummaryWords({ average: 4.9, count: 37, where: 'Google', url })).toBe(
      '4.9 from 37 Google reviews',
    );
    expect(ratingSummaryWords({ average: 5, count: 1, where: 'Google', url })).toBe(
      '5 from 1 Google review',
    );
  });
});
