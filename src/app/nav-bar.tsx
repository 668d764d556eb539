import { Menu } from 'lucide-react';
import { site } from '../content/site.ts';
import { CupMark } from '../components/cup-mark.tsx';
import { useDisclosure } from '../components/use-disclosure.ts';
import { PageLink } from '../navigation/page-link.tsx';
import { SideMenu } from './side-menu.tsx';
import { useScrolledPast } from './use-scrolled-past.ts';
import { preloadAllViews } from './views.ts';

/** Pixels of scroll after which the top bar turns dark (specification, section 9). */
export const scrolledThreshold = 20;

export function NavBar() {
  const scrolled = useScrolledPast(scrolledThreshold);
  const menu = useDisclosure();

  return (
    <header className="nav-bar" data-scrolled={scrolled}>
      <div className="nav-inner">
        <PageLink page="home" className="brand" aria-label={site.chrome.homeLink}>
          <CupMark className="brand-mark" />
          <span className="brand-name">{site.practiceName}</span>
        </PageLink>
        <button
          type="button"
          className="icon-button menu-button"
          aria-label={site.chrome.openMenu}
          aria-haspopup="dialog"
          aria-expanded={menu.isOpen}
          onClick={menu.open}
          onPointerEnter={preloadAllViews}
          onFocus={preloadAllViews}
        >
          <Menu aria-hidden="true" />
        </button>
      </div>
      <SideMenu isOpen={menu.isOpen} onClose={menu.close} />
    </header>
  );
}
