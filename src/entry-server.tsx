/**
 * Build-time rendering: the home view as HTML, so the first paint needs no
 * JavaScript and the page reads fine without it. Run by scripts/prerender.mjs.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from './app/app.tsx';

export function renderHome(): string {
  return renderToString(
    <StrictMode>
      <App initialPageName="home" />
    </StrictMode>,
  );
}
