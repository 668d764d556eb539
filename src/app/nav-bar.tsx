import { useState } from 'react';
import { Menu } from '../components/icons/menu.ts';
import { menuButtonClass, navBarClass, scrolledAttribute } from '../boot/protocol.ts';
import { site } from '../content/site.ts';
import { BookButton } from '../components/book-button.tsx';
import { CupMark } from '../components/cup-mark.tsx';
import { useNavigation } from '../navigation/navigation.ts';
import { PageLink } from '../navigation/page-link.tsx';
import { SideMenu } from './side-menu.tsx';
import { useScrolledPast } from './use-scrolled-past.ts';
import { preloadAllViews } from './views.ts';

/**
 * `menuOpen`: the menu is already open when React adopts the page (the
 * page's first script opened it on a tap before React had run, src/main.tsx).
 */
export function NavBar({ menuOpen = false }: { menuOpen?: boolean }) {
  const scrolled = useScrolledPast();
  const [isMenuOpen, setMenuOpen] = useState(menuOpen);
  // Back or Forward with the menu open (iOS's swipe back) shows another view:
  // the menu closes with the view it was opened on.
  const { pageName } = useNavigation();
  const [menuPage, setMenuPage] = useState(pageName);
  if (menuPage !== pageName) {
    setMenuPage(pageName);
    setMenuOpen(false);
  }

  return (
    <header className={navBarClass} {...{ [scrolledAttribute]: scrolled }}>
      <div className="nav-inner">
        <PageLink page="home" className="brand" aria-label={site.chrome.homeLink}>
          <CupMark className="brand-mark" />
          <span className="brand-name">{site.practiceName}</span>
        </PageLink>
        <BookButton label={site.chrome.quickBook} className="nav-book-button" />
        <button
          type="button"
          className={`icon-button ${menuButtonClass}`}
          aria-label={site.chrome.openMenu}
          aria-haspopup="dialog"
          aria-expanded={isMenuOpen}
          onClick={() => setMenuOpen(true)}
          onPointerEnter={preloadAllViews}
          onFocus={preloadAllViews}
        >
          <Menu aria-hidden="true" />
        </button>
      </div>
      <SideMenu isOpen={isMenuOpen} onClose={() => setMenuOpen(false)} />
    </header>
  );
}
