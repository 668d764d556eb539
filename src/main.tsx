import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { pageNameFromHash, viewFor } from './app/page-name.ts';
import './styles/index.css';

// In the built site, index.html's inline script links the web fonts after the
// first paint; the development server has no such script.
if (import.meta.env.DEV) void import('./styles/web-fonts.css');

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

const initialPageName = pageNameFromHash(window.location.hash);
const app = (
  <StrictMode>
    <App initialPageName={initialPageName} />
  </StrictMode>
);

// The HTML holds the pre-rendered home view, or the page the address names put
// in its place by the inline scripts of index.html: adopt what is there when it
// is the page asked for, otherwise render that page in its place.
const shownView = document.getElementById('main')?.getAttribute('data-view');
if (shownView === viewFor(initialPageName)) {
  hydrateRoot(container, app);
} else {
  createRoot(container).render(app);
}
