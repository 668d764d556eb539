import { ArrowRight } from './icons/arrow-right.ts';
import { site } from '../content/site.ts';
import { useNavigation } from '../navigation/navigation.ts';
import { PageLink } from '../navigation/page-link.tsx';

interface BookButtonProps {
  label?: string;
  className?: string;
}

/** The call to action of every view: opens the booking view. A real link, so it also works before the script loads. */
export function BookButton({ label = site.bookButton, className }: BookButtonProps) {
  const { preload } = useNavigation();
  return (
    <PageLink
      page="contact"
      className={['button', 'button-primary', className].filter(Boolean).join(' ')}
      onPointerEnter={() => preload('contact')}
      onFocus={() => preload('contact')}
    >
      {label}
      <ArrowRight aria-hidden="true" className="button-icon" />
    </PageLink>
  );
}
