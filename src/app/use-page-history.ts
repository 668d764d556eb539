import { useCallback, useEffect, useState } from 'react';
import { pageNameFromHash } from '../boot/protocol.ts';
import { urlFor } from './page-name.ts';

interface PageState {
  pageName: string;
  /** Counts switches, so choosing the current page again still scrolls to the top. */
  switches: number;
}

/**
 * The current page name, mirrored in the URL fragment so that Back and Forward
 * move between views and a link to /#contact opens the booking view.
 */
export function usePageHistory(initialPageName: string) {
  const [state, setState] = useState<PageState>({ pageName: initialPageName, switches: 0 });

  useEffect(() => {
    const followAddressBar = () => {
      const pageName = pageNameFromHash(window.location.hash);
      setState((current) => ({ pageName, switches: current.switches + 1 }));
    };
    // popstate covers Back and Forward; hashchange covers a fragment typed or linked to.
    window.addEventListener('popstate', followAddressBar);
    window.addEventListener('hashchange', followAddressBar);
    // Back pressed while the app was starting, before it listened: the address
    // has moved on from the page the app was started on, so the app follows it.
    if (pageNameFromHash(window.location.hash) !== initialPageName) followAddressBar();
    return () => {
      window.removeEventListener('popstate', followAddressBar);
      window.removeEventListener('hashchange', followAddressBar);
    };
  }, [initialPageName]);

  const navigate = useCallback((pageName: string) => {
    const url = urlFor(pageName, window.location.pathname);
    if (url !== `${window.location.pathname}${window.location.hash}`) {
      window.history.pushState(null, '', url);
    }
    setState((current) => ({ pageName, switches: current.switches + 1 }));
  }, []);

  return { ...state, navigate };
}
