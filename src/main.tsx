import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { pageNameFromHash } from './app/page-name.ts';
import './styles/index.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

const initialPageName = pageNameFromHash(window.location.hash);
const app = (
  <StrictMode>
    <App initialPageName={initialPageName} />
  </StrictMode>
);

// The HTML holds the pre-rendered home view: adopt it when home is asked for,
// otherwise render the requested view in its place.
if (initialPageName === 'home' && container.hasChildNodes()) {
  hydrateRoot(container, app);
} else {
  createRoot(container).render(app);
}
