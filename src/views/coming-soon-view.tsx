import { Hourglass } from 'lucide-react';
import { useNavigation } from '../app/navigation.ts';
import { site } from '../content/site.ts';
import { BookButton } from '../components/book-button.tsx';
import { ViewHeading } from '../components/view-heading.tsx';

export function ComingSoonView() {
  const { navigate } = useNavigation();
  const { comingSoon } = site;
  return (
    <section className="coming-soon">
      <div className="container coming-soon-inner">
        <span className="coming-soon-icon">
          <Hourglass aria-hidden="true" />
        </span>
        <ViewHeading>{comingSoon.heading}</ViewHeading>
        <p>{comingSoon.text}</p>
        <div className="coming-soon-actions">
          <a
            href="#home"
            className="button button-secondary"
            onClick={(event) => {
              event.preventDefault();
              navigate('home');
            }}
          >
            {comingSoon.homeLink}
          </a>
          <BookButton />
        </div>
      </div>
    </section>
  );
}
