import { site } from '../content/site.ts';
import { BookButton } from './book-button.tsx';

/**
 * The booking button fixed at the bottom of a phone's screen. It is in the
 * page from the start and the style sheet shows it while the page marks the
 * view's top out of view (src/lib/booking-in-reach.ts), so it takes no script
 * of React's and moves nothing when it appears.
 */
export function FixedBookButton() {
  return <BookButton label={site.chrome.quickBook} className="fixed-book-button" />;
}
