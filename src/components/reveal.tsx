import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { revealClass, revealOnScroll, stopRevealing } from '../lib/reveal-on-scroll.ts';

type RevealStep = 0 | 1 | 2 | 3;

/** The step of the n-th item of a staggered group, wrapping after four. */
export function revealStep(index: number): RevealStep {
  return (index % 4) as RevealStep;
}

interface RevealProps {
  children: ReactNode;
  /**
   * Position in a group that appears together (0–3): each step waits a little
   * longer, so the group arrives staggered. A data attribute, not an inline
   * style, so the Content-Security-Policy can forbid inline styles.
   */
  step?: RevealStep;
  as?: 'div' | 'li' | 'section' | 'article';
  className?: string;
}

/**
 * Fades and scales its content in the first time 10% of it is visible
 * (src/lib/reveal-on-scroll.ts, which also serves the pre-rendered page before
 * React runs). It holds no state: the hidden state is an attribute the
 * observer sets, and exists only once it is watching, so without JavaScript,
 * without IntersectionObserver or under reduced motion the content is simply there.
 */
export function Reveal({ children, step = 0, as: Tag = 'div', className }: RevealProps) {
  const ref = useRef<HTMLElement>(null);

  // A layout effect: the hidden state is set before the browser paints, so nothing flashes.
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    revealOnScroll(element);
    return () => stopRevealing(element);
  }, []);

  const classes = [revealClass, className].filter(Boolean).join(' ');
  return (
    <Tag
      ref={ref as never}
      className={classes}
      data-reveal="static"
      data-reveal-step={step > 0 ? step : undefined}
    >
      {children}
    </Tag>
  );
}
