import { Suspense, useEffect, useMemo, useState } from 'react';
import { mainElementId, titleAttribute, viewAttribute } from '../boot/protocol.ts';
import { site, viewTitles } from '../content/site.ts';
import { BookButton } from '../components/book-button.tsx';
import { noteFirstViewShown } from '../lib/first-view.ts';
import { scrollToTop } from '../lib/motion.ts';
import { NavigationContext } from '../navigation/navigation.ts';
import { Footer } from './footer.tsx';
import { NavBar } from './nav-bar.tsx';
import { viewFor } from './page-name.ts';
import { usePageHistory } from './use-page-history.ts';
import { ViewLoadBoundary } from './view-load-boundary.tsx';
import { preloadView, views } from './views.ts';

interface AppProps {
  initialPageName: string;
  /** The side menu is open on arrival (see NavBar). */
  menuOpen?: boolean;
}

export function App({ initialPageName, menuOpen = false }: AppProps) {
  const { pageName, switches, navigate } = usePageHistory(initialPageName);
  const navigation = useMemo(
    () => ({ pageName, switches, navigate, preload: preloadView }),
    [pageName, switches, navigate],
  );

  // Every switch (not the first load) starts at the top of the new view.
  useEffect(() => {
    if (switches === 0) return;
    scrollToTop();
  }, [switches]);

  const view = viewFor(pageName);
  const View = views[view];
  // The page whose view's code did not arrive, named as what it shows instead.
  const [failedPageName, setFailedPageName] = useState<string | null>(null);
  const title = failedPageName === pageName ? viewTitles['load-failed'] : viewTitles[view];

  useEffect(() => {
    document.title = title;
  }, [title]);

  return (
    <NavigationContext.Provider value={navigation}>
      <a
        className="skip-link"
        href={`#${mainElementId}`}
        onClick={(event) => {
          // The fragment names pages here, so move focus without touching the address bar.
          event.preventDefault();
          document.querySelector<HTMLElement>(`#${mainElementId} h1`)?.focus();
        }}
      >
        {site.chrome.skipLink}
      </a>
      <NavBar menuOpen={menuOpen} />
      <main
        id={mainElementId}
        tabIndex={-1}
        {...{ [viewAttribute]: view, [titleAttribute]: title }}
      >
        <ViewLoadBoundary key={pageName} onFailed={() => setFailedPageName(pageName)}>
          <Suspense fallback={<div className="view-loading" />}>
            <View />
            <ViewShown />
          </Suspense>
        </ViewLoadBoundary>
        {/* The booking button fixed at the bottom of a phone's screen. It is in the
            page from the start and the style sheet shows it while the page marks the
            view's top out of view (src/lib/booking-in-reach.ts), so it takes no script
            of React's and moves nothing when it appears. */}
        <BookButton label={site.chrome.quickBook} className="fixed-book-button" />
      </main>
      <Footer />
    </NavigationContext.Provider>
  );
}

/**
 * Tells, once, that the first view is on screen and answers to clicks. It is
 * rendered beside the view, inside the same Suspense boundary, so its effect
 * runs when the view itself is in place: at once for a view adopted from the
 * pre-rendered HTML, or after its code has arrived.
 */
function ViewShown() {
  useEffect(noteFirstViewShown, []);
  return null;
}
