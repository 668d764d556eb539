import {
  appAdoptedAttribute,
  interactiveAttribute,
  sendStalledAttribute,
  viewPendingAttribute,
} from '../boot/protocol.ts';

let firstViewShown = false;
const waiting: (() => void)[] = [];

/** Runs `then` once the first view is on screen and the app answers to clicks. */
export function afterFirstViewShown(then: () => void): void {
  if (firstViewShown) then();
  else waiting.push(then);
}

/** True once the view the visitor arrived on is on screen. */
export function isFirstViewShown(): boolean {
  return firstViewShown;
}

/**
 * Called when the first view is on screen, whether adopted from the
 * pre-rendered HTML or rendered in the browser after its code arrived.
 */
export function noteFirstViewShown(): void {
  if (firstViewShown) return;
  firstViewShown = true;
  // The view asked for is there now (see src/boot/start-page.ts)…
  document.documentElement.removeAttribute(viewPendingAttribute);
  // …and it answers to clicks: its script has run. The boot script lets forms
  // be sent from then on; the browser tests wait for it.
  document.documentElement.setAttribute(interactiveAttribute, '');
  document.documentElement.setAttribute(appAdoptedAttribute, '');
  // A send that waited for the app is made now: the form's notice goes.
  document.documentElement.removeAttribute(sendStalledAttribute);
  for (const then of waiting.splice(0)) then();
}
