import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { viewFor } from './app/page-name.ts';
import { mainElementId, pageNameFromHash, rootElementId, viewAttribute } from './boot/protocol.ts';
import './styles/index.css';

// In the built site, the boot script links the web fonts after the first
// paint; the development server has no such script.
if (import.meta.env.DEV) void import('./styles/web-fonts.css');

const container = document.getElementById(rootElementId);
if (!container) throw new Error(`The page has no #${rootElementId} element.`);

const initialPageName = pageNameFromHash(window.location.hash);
const app = (
  <StrictMode>
    <App initialPageName={initialPageName} />
  </StrictMode>
);

// The HTML holds the pre-rendered home view, or the page the address names put
// in its place by the boot scripts (src/boot/): adopt what is there when it is
// the page asked for, otherwise render that page in its place.
const shownView = document.getElementById(mainElementId)?.getAttribute(viewAttribute);
if (shownView === viewFor(initialPageName)) {
  hydrateRoot(container, app);
} else {
  createRoot(container).render(app);
}
