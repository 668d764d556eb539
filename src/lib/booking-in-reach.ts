import { bookingHeroAwayAttribute, bookingHeroClass, rootElementId } from '../boot/protocol.ts';

/**
 * Marks <html> while the top of the view (home's booking button, another
 * view's header) is out of view, for the style sheet to show the fixed booking
 * button. One observer, following whatever view is in #root, whether the boot
 * scripts or the app put it there: it works before React comes and after.
 */
export function keepBookingInReach(document: Document): void {
  const root = document.getElementById(rootElementId);
  if (!root || typeof IntersectionObserver !== 'function') return;
  const html = document.documentElement;
  let watched: Element | null = null;
  const observer = new IntersectionObserver((entries) => {
    const latest = entries[entries.length - 1];
    if (latest) html.toggleAttribute(bookingHeroAwayAttribute, !latest.isIntersecting);
  });
  const followView = () => {
    const hero = root.querySelector(`.${bookingHeroClass}`);
    if (hero === watched) return;
    observer.disconnect();
    watched = hero;
    if (hero) observer.observe(hero);
    else html.removeAttribute(bookingHeroAwayAttribute);
  };
  followView();
  new MutationObserver(followView).observe(root, { childList: true, subtree: true });
}
