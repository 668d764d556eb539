import { Suspense, useEffect, useMemo } from 'react';
import { site } from '../content/site.ts';
import { scrollToTop } from '../lib/motion.ts';
import { NavigationContext } from '../navigation/navigation.ts';
import { Footer } from './footer.tsx';
import { NavBar } from './nav-bar.tsx';
import { viewFor } from './page-name.ts';
import { usePageHistory } from './use-page-history.ts';
import { preloadView, views } from './views.ts';

export function App({ initialPageName }: { initialPageName: string }) {
  const { pageName, switches, navigate } = usePageHistory(initialPageName);
  const navigation = useMemo(
    () => ({ pageName, switches, navigate, preload: preloadView }),
    [pageName, switches, navigate],
  );

  // Every switch (not the first load) starts at the top of the new view.
  useEffect(() => {
    if (switches > 0) scrollToTop();
  }, [switches]);

  const view = viewFor(pageName);
  const View = views[view];
  return (
    <NavigationContext.Provider value={navigation}>
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          // The fragment names pages here, so move focus without touching the address bar.
          event.preventDefault();
          document.querySelector<HTMLElement>('#main h1')?.focus();
        }}
      >
        {site.chrome.skipLink}
      </a>
      <NavBar />
      <main id="main" tabIndex={-1} data-view={view}>
        <Suspense fallback={<div className="view-loading" />}>
          <View key={pageName} />
        </Suspense>
      </main>
      <Footer />
    </NavigationContext.Provider>
  );
}
