import type { ReactNode } from 'react';

interface ViewHeadingProps {
  children: ReactNode;
  id?: string;
  className?: string;
}

/** The main heading of a view; focus moves here after every page switch. */
export function ViewHeading({ children, id, className }: ViewHeadingProps) {
  return (
    <h1 id={id} className={['view-heading', className].filter(Boolean).join(' ')} tabIndex={-1}>
      {children}
    </h1>
  );
}
