import { ArrowRight } from 'lucide-react';
import { useNavigation } from '../app/navigation.ts';
import { preloadView } from '../app/views.ts';
import { site } from '../content/site.ts';

interface BookButtonProps {
  label?: string;
  className?: string;
}

/** The call to action of every view: opens the booking view. A real link, so it also works before the script loads. */
export function BookButton({ label = site.bookButton, className }: BookButtonProps) {
  const { navigate } = useNavigation();
  return (
    <a
      href="#contact"
      className={['button', 'button-primary', className].filter(Boolean).join(' ')}
      onPointerEnter={() => preloadView('contact')}
      onFocus={() => preloadView('contact')}
      onTouchStart={() => preloadView('contact')}
      onClick={(event) => {
        event.preventDefault();
        navigate('contact');
      }}
    >
      {label}
      <ArrowRight aria-hidden="true" className="button-icon" />
    </a>
  );
}
