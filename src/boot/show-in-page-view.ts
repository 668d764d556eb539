/**
 * Runs right after #root, before the first paint: a link to a page
 * pre-rendered into the HTML as a template (/#contact) shows it in place of
 * home. The page's first script, and then the app, adopt it; its form takes
 * what is typed from the start (src/booking/form-before-app.ts).
 */
import {
  inPageTemplateId,
  mainElementId,
  pageNameFromHash,
  rootElementId,
  titleAttribute,
} from './protocol.ts';

/** Whether the page the address names was put in place. */
export function showInPageView({
  document,
  location,
}: Pick<Window, 'document' | 'location'>): boolean {
  return putInPageView(document, pageNameFromHash(location.hash));
}

/**
 * Puts the page pre-rendered as a template in place of #root's content.
 * False, and nothing changed, where the page is not in the HTML.
 */
export function putInPageView(document: Document, pageName: string): boolean {
  const template = document.getElementById(inPageTemplateId(pageName));
  const root = document.getElementById(rootElementId);
  if (template?.tagName !== 'TEMPLATE' || !root) return false;
  root.replaceChildren((template as HTMLTemplateElement).content.cloneNode(true));
  return true;
}

/**
 * Gives the document the title of the view on screen, as the app does on a
 * switch. The page's first script calls it, not the boot scripts: a title is
 * not painted, and they must stay within the first round trip.
 */
export function takeViewTitle(document: Document): void {
  document.title =
    document.getElementById(mainElementId)?.getAttribute(titleAttribute) || document.title;
}

/**
 * Focus on the heading of the page on screen, as a new page would put a
 * screen reader there, without scrolling to it (the caller scrolls).
 */
export function focusPageHeading(document: Document): void {
  document.querySelector<HTMLElement>(`#${mainElementId} h1`)?.focus({ preventScroll: true });
}
