import { isFirstViewShown } from './first-view.ts';
import { prefersReducedMotion } from './motion.ts';

/** Share of the element that must be visible before it appears (specification, section 9). */
const visibleThreshold = 0.1;

/** The class of every element that fades in (src/components/reveal.tsx). */
export const revealClass = 'reveal';

const watched = new WeakSet<Element>();
let revealing: IntersectionObserver | null = null;
let arrived: IntersectionObserver | null = null;

function hideUntilSeen(element: HTMLElement): void {
  revealing ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        (entry.target as HTMLElement).dataset.reveal = 'shown';
        revealing?.unobserve(entry.target);
      }
    },
    { threshold: visibleThreshold },
  );
  element.dataset.reveal = 'waiting';
  revealing.observe(element);
}

/**
 * Hides the element until 10% of it is visible, then lets it fade and scale in
 * (the transition is in components.css). Two observers serve every element,
 * and no framework state is involved, so the pre-rendered page gets it before
 * React runs, and React's own elements (src/components/reveal.tsx) the same.
 * Without IntersectionObserver or under reduced motion, the content is simply
 * there. On arrival, what is already in view stays put: hiding the first
 * screen to fade it back in would be a flicker, not a reveal. Which elements
 * those are, the observer's first report tells, so nothing forces a layout.
 */
export function revealOnScroll(element: HTMLElement, arriving = !isFirstViewShown()): void {
  if (watched.has(element)) return;
  watched.add(element);
  if (typeof IntersectionObserver !== 'function' || prefersReducedMotion()) return;
  if (!arriving) {
    hideUntilSeen(element);
    return;
  }
  arrived ??= new IntersectionObserver((entries) => {
    for (const entry of entries) {
      arrived?.unobserve(entry.target);
      if (!entry.isIntersecting) hideUntilSeen(entry.target as HTMLElement);
    }
  });
  arrived.observe(element);
}

/** Stops watching an element that leaves the page before it was revealed. */
export function stopRevealing(element: HTMLElement): void {
  arrived?.unobserve(element);
  revealing?.unobserve(element);
}

/** Every element to reveal in the pre-rendered page, watched at once. */
export function revealAllOnScroll(document: Document): void {
  for (const element of document.querySelectorAll<HTMLElement>(`.${revealClass}`)) {
    revealOnScroll(element, true);
  }
}
