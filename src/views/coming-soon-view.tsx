import { Hourglass } from '../components/icons/hourglass.ts';
import { site } from '../content/site.ts';
import { PageLink } from '../navigation/page-link.tsx';
import { BookButton } from '../components/book-button.tsx';
import { ViewHeading } from '../components/view-heading.tsx';

export function ComingSoonView() {
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
          <PageLink page="home" className="button button-secondary">
            {comingSoon.homeLink}
          </PageLink>
          <BookButton />
        </div>
      </div>
    </section>
  );
}
