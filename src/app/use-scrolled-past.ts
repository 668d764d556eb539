import { useEffect, useState } from 'react';
import { isScrolledPast } from '../lib/scrolled-past.ts';

/** True once the page is scrolled past the top bar's threshold. */
export function useScrolledPast(): boolean {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const update = () => setScrolled(isScrolledPast());
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, []);
  return scrolled;
}
