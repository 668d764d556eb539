/**
 * The React app, started by the page's first script (src/main.tsx): at once
 * where a view needs it (the booking form, a view it must render), otherwise
 * on the visitor's first interaction.
 */
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { viewFor } from './app/page-name.ts';
import { mainElementId, pageNameFromHash, rootElementId, viewAttribute } from './boot/protocol.ts';

export function startApp({ menuOpen }: { menuOpen: boolean }): void {
  const container = document.getElementById(rootElementId);
  if (!container) throw new Error(`The page has no #${rootElementId} element.`);

  const initialPageName = pageNameFromHash(window.location.hash);
  const app = (
    <StrictMode>
      <App initialPageName={initialPageName} menuOpen={menuOpen} />
    </StrictMode>
  );

  // The HTML holds the pre-rendered home view, or the page the address names put
  // in its place by the boot scripts (src/boot/) or the first script: adopt what
  // is there when it is the page asked for, otherwise render that page in its place.
  const shownView = document.getElementById(mainElementId)?.getAttribute(viewAttribute);
  if (shownView === viewFor(initialPageName)) {
    hydrateRoot(container, app);
  } else {
    createRoot(container).render(app);
  }
}
