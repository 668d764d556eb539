import { Star } from '../components/icons/star.ts';
import { site, type ReviewSource, type Testimonial } from '../content/site.ts';
import { ClosingCall } from '../components/closing-call.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { Reveal, revealStep } from '../components/reveal.tsx';
import { formatLongDate } from '../lib/calendar-date.ts';

function paragraphsOf(content: string): string[] {
  return content
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
}

function Stars({ rating }: { rating: number }) {
  return (
    <div className="stars" role="img" aria-label={site.testimonials.ratingLabel(rating)}>
      {Array.from({ length: 5 }, (_, index) => (
        <Star
          key={index}
          aria-hidden="true"
          className={index < rating ? 'star star-filled' : 'star'}
        />
      ))}
    </div>
  );
}

/** Where the review was given, and when: what makes 'Verified Client' true. */
function ReviewSourceLine({ source }: { source: ReviewSource }) {
  const words = site.testimonials.sourceWords[source.kind];
  return (
    <span className="review-source">
      {source.kind === 'google' && source.url ? (
        <a className="inline-link" href={source.url}>
          {words}
        </a>
      ) : (
        words
      )}
      {source.kind !== 'SAMPLE' && (
        <>
          {' · '}
          <time dateTime={source.date}>{formatLongDate(source.date)}</time>
        </>
      )}
    </span>
  );
}

function Review({ review }: { review: Testimonial }) {
  return (
    <figure className="review">
      <Stars rating={review.rating} />
      <blockquote className="review-text">
        {paragraphsOf(review.content).map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
      </blockquote>
      <figcaption className="review-author">
        <span className="review-initial" aria-hidden="true">
          {review.name.trim().charAt(0).toUpperCase()}
        </span>
        <span>
          <span className="review-name">{review.name}</span>
          <span className="review-label">{site.testimonials.verifiedLabel}</span>
          <ReviewSourceLine source={review.source} />
        </span>
      </figcaption>
    </figure>
  );
}

export function TestimonialsView() {
  const { heading, intro, reviews, ratingSummary, ratingSummaryWords } = site.testimonials;
  return (
    <>
      <PageHeader title={heading} subtitle={intro} />
      <section className="section section-flush" aria-label={heading}>
        <div className="container">
          {ratingSummary && (
            <p className="rating-summary">
              <a className="inline-link" href={ratingSummary.url}>
                {ratingSummaryWords(ratingSummary)}
              </a>
            </p>
          )}
          <ul className="review-grid">
            {reviews.map((review, index) => (
              <Reveal as="li" key={review.name} step={revealStep(index % 2)}>
                <Review review={review} />
              </Reveal>
            ))}
          </ul>
          <ClosingCall />
        </div>
      </section>
    </>
  );
}
