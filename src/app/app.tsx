import { useEffect, useMemo, useRef } from 'react';
import { site } from '../content/site.ts';
import { noteFirstRenderDone } from '../components/reveal.tsx';
import { scrollToTop } from '../lib/motion.ts';
import { BenefitsView } from '../views/benefits-view.tsx';
import { ComingSoonView } from '../views/coming-soon-view.tsx';
import { ContactView } from '../views/contact-view.tsx';
import { HomeView } from '../views/home-view.tsx';
import { LocationView } from '../views/location-view.tsx';
import { TestimonialsView } from '../views/testimonials-view.tsx';
import { Footer } from './footer.tsx';
import { NavBar } from './nav-bar.tsx';
import { NavigationContext } from './navigation.ts';
import { viewFor, type ViewName } from './page-name.ts';
import { usePageHistory } from './use-page-history.ts';

const views: Record<ViewName, () => React.JSX.Element> = {
  home: HomeView,
  benefits: BenefitsView,
  testimonials: TestimonialsView,
  location: LocationView,
  contact: ContactView,
  'coming-soon': ComingSoonView,
};

export function App({ initialPageName }: { initialPageName: string }) {
  const { pageName, switches, navigate } = usePageHistory(initialPageName);
  const mainRef = useRef<HTMLElement>(null);
  const navigation = useMemo(() => ({ pageName, navigate }), [pageName, navigate]);

  useEffect(noteFirstRenderDone, []);

  // After every switch (not on the first load): back to the top, and focus on the
  // new view's heading so keyboard and screen-reader users land where sighted users do.
  useEffect(() => {
    if (switches === 0) return;
    scrollToTop();
    mainRef.current?.querySelector<HTMLElement>('h1')?.focus({ preventScroll: true });
  }, [switches]);

  const View = views[viewFor(pageName)];
  return (
    <NavigationContext.Provider value={navigation}>
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          // The fragment names pages here, so move focus without touching the address bar.
          event.preventDefault();
          mainRef.current?.querySelector<HTMLElement>('h1')?.focus();
        }}
      >
        {site.chrome.skipLink}
      </a>
      <NavBar />
      <main id="main" ref={mainRef} tabIndex={-1} data-view={viewFor(pageName)}>
        <View key={pageName} />
      </main>
      <Footer />
    </NavigationContext.Provider>
  );
}
