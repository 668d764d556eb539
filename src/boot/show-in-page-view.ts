/**
 * Runs right after #root, before the first paint: a link to a page
 * pre-rendered into the HTML as a template (/#contact) shows it in place of
 * home. The script then adopts it. Its forms wait, inert, for the script: they
 * are rendered so until it runs.
 */
import { inPageTemplateId, pageNameFromHash, rootElementId } from './protocol.ts';

/** Whether the page the address names was put in place. */
export function showInPageView({
  document,
  location,
}: Pick<Window, 'document' | 'location'>): boolean {
  const template = document.getElementById(inPageTemplateId(pageNameFromHash(location.hash)));
  const root = document.getElementById(rootElementId);
  if (template?.tagName !== 'TEMPLATE' || !root) return false;
  root.replaceChildren((template as HTMLTemplateElement).content.cloneNode(true));
  return true;
}
