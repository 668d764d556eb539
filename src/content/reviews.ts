/**
 * The client reviews the testimonials view shows, each with where it was
 * given (src/content/launch-list.ts lists the SAMPLE ones still here).
 *
 * The spec's 'Verified Client' label is on every review, so every review
 * carries the source that makes it true: a Google review with its date, or
 * one given in person with the client's consent, with its date. A review
 * without its source is a type error, so it does not build. Fake or
 * unverifiable reviews are banned in the UK (DMCC Act 2024, from April 2025).
 *
 * SAMPLE: the eight reviews below were written to show the layout. Replace
 * them with real reviews (docs/content.md); `npx hijama check` fails and
 * `npm run build` warns while any is left.
 */
import type { IsoDate } from '../lib/calendar-date.ts';

/** Where a review was given: what makes its 'Verified Client' label true. */
export type ReviewSource =
  /** Posted on Google; `url` links to it where it can be linked. */
  | { kind: 'google'; date: IsoDate; url?: string }
  /** Written by the client at the practice, and published with their consent. */
  | { kind: 'in-person'; date: IsoDate }
  /** Written to show the layout: never to go live. */
  | { kind: 'SAMPLE' };

export interface Testimonial {
  name: string;
  /** Paragraphs separated by a blank line. */
  content: string;
  /** Stars out of five. */
  rating: 1 | 2 | 3 | 4 | 5;
  /** Required: a review without its source does not build. */
  source: ReviewSource;
}

/** A summary of the practice's reviews where they are published, e.g. on Google. */
interface RatingSummary {
  /** The average, as the source shows it, e.g. 4.9. */
  average: number;
  count: number;
  /** Where, as the line names it: 'Google'. */
  where: string;
  /** The page that shows them (the practice's Google reviews). */
  url: string;
}

/** How a review card names its source; the date follows where there is one. */
export const reviewSourceWords = {
  google: 'Google review',
  'in-person': 'Given in person, with consent',
  SAMPLE: 'SAMPLE review, written to show the layout',
} as const satisfies Record<ReviewSource['kind'], string>;

/** '4.9 from 37 Google reviews'. */
export const ratingSummaryWords = ({ average, count, where }: RatingSummary): string =>
  `${average} from ${count} ${where} review${count === 1 ? '' : 's'}`;

/**
 * The practice's rating where its reviews are published, copied by hand (no
 * live widget): e.g. { average: 4.9, count: 37, where: 'Google', url: '…' }.
 */
export const ratingSummary: RatingSummary | null = null;

/** SAMPLE reviews showing the layout: replace with real reviews and their sources. */
export const reviews: readonly Testimonial[] = [
  {
    name: 'Fatima R.',
    rating: 5,
    source: { kind: 'SAMPLE' },
    content:
      'I was nervous before my first Hijama, but everything was explained step by step and I never felt rushed.\n\nThe room was spotless and every cup was opened in front of me. My shoulders have not felt this light in months.',
  },
  {
    name: 'James T.',
    rating: 5,
    source: { kind: 'SAMPLE' },
    content:
      'I play Sunday league and my hamstrings are always tight. After two sessions I feel much looser.\n\nFriendly, professional, and easy to park.',
  },
  {
    name: 'Aisha M.',
    rating: 5,
    source: { kind: 'SAMPLE' },
    content:
      'I booked a Sunnah day session and it was arranged perfectly around the date.\n\nA calm, respectful practitioner who really listens. I will be back next month.',
  },
  {
    name: 'Daniel K.',
    rating: 5,
    source: { kind: 'SAMPLE' },
    content:
      'Desk job, and a stiff neck by Thursday. A colleague recommended this place.\n\nI did not know what to expect, but I left feeling relaxed and the aftercare advice was clear.',
  },
  {
    name: 'Yusuf A.',
    rating: 5,
    source: { kind: 'SAMPLE' },
    content:
      'Very clean and hygienic, which matters most to me with wet cupping.\n\nThey replied to my Instagram message the same evening and found me a Saturday morning slot.',
  },
  {
    name: 'Sarah L.',
    rating: 5,
    source: { kind: 'SAMPLE' },
    content:
      'I came for general wellbeing and to switch off for an hour. It did exactly that.\n\nThe marks faded within a week, just as I was told they would.',
  },
  {
    name: 'Omar H.',
    rating: 5,
    source: { kind: 'SAMPLE' },
    content:
      'Professional from start to finish. My health questions were asked properly before anything began, which gave me confidence.\n\nHighly recommended in Medway.',
  },
  {
    name: 'Emma W.',
    rating: 5,
    source: { kind: 'SAMPLE' },
    content:
      'My back has been tight since I started running again. The session was gentle, the explanations were honest, and I felt the difference the next day.\n\nThank you for making a first-timer feel so comfortable.',
  },
];

const reviewsFile = 'src/content/reviews.ts';

/** One line per SAMPLE review still in the list, saying what to do; empty when none is left. */
export function sampleReviewsLeft(list: readonly Testimonial[]): string[] {
  return list
    .filter((review) => review.source.kind === 'SAMPLE')
    .map(
      (review) =>
        `The review by "${review.name}" is a SAMPLE, not a real client's: replace it in ${reviewsFile} with a real review and its source, or remove it, then rebuild (npm run build).`,
    );
}
