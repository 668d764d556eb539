import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { isFirstViewShown } from '../lib/first-view.ts';
import { prefersReducedMotion } from '../lib/motion.ts';

/** Share of the element that must be visible before it appears (specification, section 9). */
const visibleThreshold = 0.1;

function isInViewport(element: Element): boolean {
  const box = element.getBoundingClientRect();
  return box.top < window.innerHeight && box.bottom > 0;
}

export type RevealStep = 0 | 1 | 2 | 3;

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
 * Fades and scales its content in the first time 10% of it is visible.
 * The hidden state exists only once the observer is watching: without
 * JavaScript, without IntersectionObserver or under reduced motion, the content
 * is simply there.
 */
export function Reveal({ children, step = 0, as: Tag = 'div', className }: RevealProps) {
  const ref = useRef<HTMLElement>(null);
  const [state, setState] = useState<'static' | 'waiting' | 'shown'>('static');

  // A layout effect: the hidden state is set before the browser paints, so nothing flashes.
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver !== 'function' || prefersReducedMotion()) return;
    // On arrival, what is already in view stays put: hiding the first screen (the
    // pre-rendered page, or the largest paint of a view) to fade it back in would
    // be a flicker and a slower page, not a reveal.
    if (!isFirstViewShown() && isInViewport(element)) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setState('shown');
          observer.disconnect();
        }
      },
      { threshold: visibleThreshold },
    );
    setState('waiting');
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const classes = ['reveal', className].filter(Boolean).join(' ');
  return (
    <Tag
      ref={ref as never}
      className={classes}
      data-reveal={state}
      data-reveal-step={step > 0 ? step : undefined}
    >
      {children}
    </Tag>
  );
}
