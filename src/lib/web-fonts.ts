import { bootManifestId, type BootManifest } from '../boot/protocol.ts';

let linked = false;

/**
 * Links the web fonts' style sheet, once. Called at the visitor's first switch
 * of view, which lays the page out anyway: on arrival the page keeps the
 * fallback fonts, as putting the web fonts in their place then would lay the
 * whole page out a second time (src/boot/start-page.ts fetches them after the
 * load, so they come from the cache; `font-display: optional` keeps the
 * fallbacks should they not be there at once).
 */
export function linkWebFonts(document: Document): void {
  if (linked) return;
  linked = true;
  // The development server has no manifest: its script imports the fonts itself.
  const element = document.getElementById(bootManifestId);
  if (!element?.textContent) return;
  const manifest = JSON.parse(element.textContent) as BootManifest;
  for (const href of manifest.afterFirstPaint.stylesheets) {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    document.head.append(link);
  }
}
