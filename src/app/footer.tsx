import { site } from '../content/site.ts';
import { CupMark } from '../components/cup-mark.tsx';
import { useNavigation } from './navigation.ts';

export function Footer() {
  const { navigate } = useNavigation();
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
        <nav aria-label="Footer">
          <ul className="footer-links">
            {site.navigation.map((item) => (
              <li key={item.id}>
                <a
                  href={`#${item.id}`}
                  onClick={(event) => {
                    event.preventDefault();
                    navigate(item.id);
                  }}
                >
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <p className="footer-note">{site.chrome.footerNote}</p>
      </div>
    </footer>
  );
}
