/**
 * What the page needs only once the visitor acts (src/main.tsx), so that a
 * visitor who only reads costs the phone none of it: the web manifest (the
 * browser reads it and draws its icons; it offers to install a site only
 * after the visitor has engaged with it anyway), and the web fonts, fetched
 * into the cache for the first switch of view, which links them.
 */
import { bootManifestId, type BootManifest } from '../boot/protocol.ts';

/** The manifest the pre-render step wrote; null on the development server. */
function bootManifest(document: Document): BootManifest | null {
  const element = document.getElementById(bootManifestId);
  return element?.textContent ? (JSON.parse(element.textContent) as BootManifest) : null;
}

function link(document: Document, rel: string, href: string): void {
  const element = document.createElement('link');
  element.rel = rel;
  element.href = href;
  document.head.append(element);
}

let extrasLinked = false;

/** Links the web manifest and fetches the web fonts into the cache, once. */
export function linkPageExtras(document: Document, fetch: typeof window.fetch): void {
  if (extrasLinked) return;
  extrasLinked = true;
  const manifest = bootManifest(document);
  if (!manifest) return;
  const { manifest: webManifest, stylesheets, fonts } = manifest.afterFirstPaint;
  if (webManifest) link(document, 'manifest', webManifest);
  for (const file of [...stylesheets, ...fonts]) {
    fetch(file)
      .then((response) => response.arrayBuffer())
      .catch(() => {
        // Not now: the fonts are fetched again when they are linked.
      });
  }
}

let fontsLinked = false;

/**
 * Links the web fonts' style sheet, once. Called at the visitor's first switch
 * of view, which lays the page out anyway: on arrival the page keeps the
 * fallback fonts, as putting the web fonts in their place then would lay the
 * whole page out a second time. `font-display: optional` keeps the fallbacks
 * should the fonts not be at hand at once.
 */
export function linkWebFonts(document: Document): void {
  if (fontsLinked) return;
  fontsLinked = true;
  for (const href of bootManifest(document)?.afterFirstPaint.stylesheets ?? []) {
    link(document, 'stylesheet', href);
  }
}
