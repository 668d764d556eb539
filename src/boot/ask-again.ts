/**
 * The visitor's next act, and a second attempt at the page's code. Here in
 * src/boot/ so that the boot script (which fetches the first script) and the
 * first script (which fetches the app) share them.
 */

/** What the visitor does that tells the page they are using it. */
const visitorActs = ['pointerdown', 'touchstart', 'keydown', 'focusin'] as const;

/**
 * Calls `then` at the visitor's next touch, key or focus: once for each kind
 * of act (a tap is a pointerdown, a touchstart and a focusin), so `then` must
 * be harmless to call again.
 */
export function onNextVisitorAct(document: Document, then: () => void): void {
  for (const type of visitorActs) {
    document.addEventListener(type, then, { capture: true, once: true, passive: true });
  }
}

/**
 * After a fetch of the page's code failed (the connection dropped): calls
 * `askAgain` at the visitor's next act, or when the browser reports the
 * connection back. Browsers fetch a module that failed once again
 * (whatwg/html#10327).
 */
export function askAgainLater(
  window: Pick<Window, 'document' | 'addEventListener'>,
  askAgain: () => void,
): void {
  window.addEventListener('online', askAgain, { once: true });
  onNextVisitorAct(window.document, askAgain);
}
