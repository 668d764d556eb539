import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { pageNameFromHash } from './app/page-name.ts';
import './styles/index.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

createRoot(container).render(
  <StrictMode>
    <App initialPageName={pageNameFromHash(window.location.hash)} />
  </StrictMode>,
);
