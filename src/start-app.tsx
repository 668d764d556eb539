/**
 * The React app, started by the page's first script (src/main.tsx): at once
 * where a view needs it (the booking form, a view it must render), otherwise
 * on the visitor's first interaction.
 */
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { viewFor } from './app/page-name.ts';
import {
  bookingFormClass,
  mainElementId,
  pageNameFromHash,
  rootElementId,
  viewAttribute,
} from './boot/protocol.ts';
import { takeFormValues } from './booking/booking-form-store.ts';

export function startApp({ menuOpen }: { menuOpen: boolean }): void {
  const container = document.getElementById(rootElementId);
  if (!container) throw new Error(`The page has no #${rootElementId} element.`);

  keepWhatWasTyped();
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

/**
 * Takes what was typed into the pre-rendered booking form into the form's
 * state before React renders. Where the app renders another view in its place
 * (the visitor went back before the app came), the form goes, and what was
 * typed with it; adopted, the form also takes what is typed meanwhile
 * (booking-form.tsx).
 */
function keepWhatWasTyped(): void {
  const form = document.querySelector<HTMLFormElement>(`form.${bookingFormClass}`);
  if (form) takeFormValues(form);
}
