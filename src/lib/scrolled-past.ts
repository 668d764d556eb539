/** Pixels of scroll after which the top bar turns dark (specification, section 9). */
export const scrolledThreshold = 20;

/** Whether the page is scrolled past the threshold. */
export function isScrolledPast(): boolean {
  return window.scrollY > scrolledThreshold;
}
