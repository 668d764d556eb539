import { useEffect } from 'react';

let locks = 0;

/** Stops the page behind an open overlay from scrolling; nested overlays share one lock. */
export function useLockBodyScroll(locked: boolean): void {
  useEffect(() => {
    if (!locked) return;
    locks += 1;
    document.documentElement.classList.add('scroll-locked');
    return () => {
      locks -= 1;
      if (locks === 0) document.documentElement.classList.remove('scroll-locked');
    };
  }, [locked]);
}
