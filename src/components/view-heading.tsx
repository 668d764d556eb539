import { useEffect, useRef, type ReactNode } from 'react';
import { useNavigation } from '../navigation/navigation.ts';

interface ViewHeadingProps {
  children: ReactNode;
  id?: string;
  className?: string;
}

/**
 * The main heading of a view. After every switch (not on the first load) it
 * takes focus, so keyboard and screen-reader users land where sighted users do;
 * it does so itself because a view may arrive a moment after the switch.
 */
export function ViewHeading({ children, id, className }: ViewHeadingProps) {
  const { switches } = useNavigation();
  const ref = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (switches > 0) ref.current?.focus({ preventScroll: true });
  }, [switches]);

  return (
    <h1
      ref={ref}
      id={id}
      className={['view-heading', className].filter(Boolean).join(' ')}
      tabIndex={-1}
    >
      {children}
    </h1>
  );
}
