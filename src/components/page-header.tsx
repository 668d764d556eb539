import type { ReactNode } from 'react';
import { bookingHeroClass } from '../boot/protocol.ts';
import { ViewHeading } from './view-heading.tsx';

/** The top of every view but home: its title and an optional subtitle. */
export function PageHeader({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: string;
  children?: ReactNode;
}) {
  return (
    <header className={`page-header ${bookingHeroClass}`}>
      <div className="container">
        <ViewHeading>{title}</ViewHeading>
        {subtitle ? <p className="page-subtitle">{subtitle}</p> : null}
        {children}
      </div>
    </header>
  );
}
