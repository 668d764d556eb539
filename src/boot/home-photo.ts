/**
 * Runs right after home's first-screen photo, which the page's HTML holds in a
 * <noscript> (see `homePhotoScriptAttribute` in protocol.ts). Where the page
 * arrives at home, it puts the photo in place, so the browser fetches it at
 * once, first; on any other view the photo stays held and is never fetched, as
 * home's markup is about to be replaced. Either way the script removes itself,
 * leaving home's markup as the app renders it, for the app to adopt.
 */
import { pageNameFromHash } from './protocol.ts';

export function showHomePhoto(
  location: Pick<Location, 'hash'>,
  script: HTMLOrSVGScriptElement | null,
): void {
  const held = script?.previousElementSibling;
  if (held?.tagName === 'NOSCRIPT' && pageNameFromHash(location.hash) === 'home') {
    // A browser running scripts reads a <noscript>'s content as text: the photo's markup.
    held.outerHTML = held.textContent ?? '';
  }
  script?.remove();
}
