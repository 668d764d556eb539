/**
 * A send held for the app (by the boot script, then by the first script) is
 * made once the app has adopted the form. If the app's code is slow to come,
 * or never comes, the visitor would be left with a button that seems to do
 * nothing: after a while the form says the request is not sent yet, and what
 * to do (the notice is in the pre-rendered form; the style sheet shows it).
 */
import { appAdoptedAttribute, sendStalledAfterMs, sendStalledAttribute } from './protocol.ts';

/** Shows the form's notice if the app has not adopted the page `sendStalledAfterMs` from now. */
export function noticeIfSendStalls(document: Document): void {
  document.defaultView?.setTimeout(() => {
    const html = document.documentElement;
    if (!html.hasAttribute(appAdoptedAttribute)) html.setAttribute(sendStalledAttribute, '');
  }, sendStalledAfterMs);
}
