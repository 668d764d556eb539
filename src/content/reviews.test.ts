import { describe, expect, it } from 'vitest';
import { ratingSummaryWords, reviews, sampleReviewsLeft, type Testimonial } from './reviews.ts';

/** A shipped review, as if given in person. */
const real: Testimonial = { ...reviews[0]!, source: { kind: 'in-person', date: '2026-06-11' } };

describe('reviews', () => {
  it('refuses a review without its source, at compile time', () => {
    // @ts-expect-error a review must say where it was given
    const unsourced: Testimonial = { name: 'No Source', rating: 5, content: 'Great.' };
    expect(unsourced.name).toBe('No Source');
  });

  it('ships eight SAMPLE reviews, rated five and named, each named on the launch list', () => {
    expect(reviews).toHaveLength(8);
    for (const review of reviews) {
      expect(review.source.kind).toBe('SAMPLE');
      expect(review.rating).toBe(5);
      expect(review.name.trim()).not.toBe('');
    }
    const lines = sampleReviewsLeft(reviews);
    expect(lines).toHaveLength(8);
    reviews.forEach((review, index) => expect(lines[index]).toContain(`"${review.name}"`));
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
