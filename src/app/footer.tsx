import { site } from '../content/site.ts';
import { CupMark } from '../components/cup-mark.tsx';
import { PageLink } from '../navigation/page-link.tsx';

export function Footer() {
  return (
    <footer className="site-footer">
      <div className="container footer-inner">
        <div className="footer-brand">
          <CupMark className="brand-mark" />
          <div>
            <p className="footer-name">{site.practiceName}</p>
            <p>{site.shortDescription}</p>
          </div>
        </div>
        <nav aria-label={site.chrome.footerNavigation}>
          <ul className="footer-links">
            {site.navigation.map((item) => (
              <li key={item.id}>
                <PageLink page={item.id}>{item.label}</PageLink>
              </li>
            ))}
          </ul>
        </nav>
        <p className="footer-note">{site.chrome.footerNote}</p>
      </div>
    </footer>
  );
}
