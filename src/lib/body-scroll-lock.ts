let locks = 0;

/**
 * Stops the page behind an open overlay from scrolling; nested overlays share
 * one lock. Where the scrollbar takes room (desktop), the page is padded by its
 * width so that nothing shifts sideways when it disappears. Returns the unlock.
 */
export function lockBodyScroll(): () => void {
  const root = document.documentElement;
  if (locks === 0) {
    // Only where there is a scrollbar: a custom property set on the root
    // restyles the whole page, work a phone (no scrollbar) is spared.
    const scrollbarWidth = window.innerWidth - root.clientWidth;
    if (scrollbarWidth > 0) root.style.setProperty('--scrollbar-width', `${scrollbarWidth}px`);
    root.classList.add('scroll-locked');
  }
  locks += 1;
  let unlocked = false;
  return () => {
    if (unlocked) return;
    unlocked = true;
    locks -= 1;
    if (locks === 0) {
      root.classList.remove('scroll-locked');
      root.style.removeProperty('--scrollbar-width');
    }
  };
}
