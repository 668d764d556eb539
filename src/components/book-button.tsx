import { ArrowRight } from 'lucide-react';
import { PageLink } from '../app/page-link.tsx';
import { preloadView } from '../app/views.ts';
import { site } from '../content/site.ts';

interface BookButtonProps {
  label?: string;
  className?: string;
}

/** The call to action of every view: opens the booking view. A real link, so it also works before the script loads. */
export function BookButton({ label = site.bookButton, className }: BookButtonProps) {
  return (
    <PageLink
      page="contact"
      className={['button', 'button-primary', className].filter(Boolean).join(' ')}
      onPointerEnter={() => preloadView('contact')}
      onFocus={() => preloadView('contact')}
    >
      {label}
      <ArrowRight aria-hidden="true" className="button-icon" />
    </PageLink>
  );
}
