import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { prefersReducedMotion } from '../lib/motion.ts';

/** Share of the element that must be visible before it appears (specification, section 9). */
const visibleThreshold = 0.1;

interface RevealProps {
  children: ReactNode;
  /** Delay in milliseconds, to stagger cards that appear together. */
  delay?: number;
  as?: 'div' | 'li' | 'section' | 'article';
  className?: string;
}

/**
 * Fades and scales its content in the first time 10% of it is visible.
 * The hidden state exists only once the observer is watching: without
 * JavaScript, without IntersectionObserver or under reduced motion, the content
 * is simply there.
 */
export function Reveal({ children, delay = 0, as: Tag = 'div', className }: RevealProps) {
  const ref = useRef<HTMLElement>(null);
  const [state, setState] = useState<'static' | 'waiting' | 'shown'>('static');

  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver !== 'function' || prefersReducedMotion()) return;
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

  const style = delay > 0 ? ({ '--reveal-delay': `${delay}ms` } as CSSProperties) : undefined;
  const classes = ['reveal', className].filter(Boolean).join(' ');
  return (
    <Tag ref={ref as never} className={classes} data-reveal={state} style={style}>
      {children}
    </Tag>
  );
}
