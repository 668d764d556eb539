/**
 * What the page needs only once the visitor acts (src/main.tsx), so that a
 * visitor who only reads costs the phone none of it: the web manifest (the
 * browser reads it and draws its icons; it offers to install a site only
 * after the visitor has engaged with it anyway), and the web fonts.
 */
import { linkInHead } from '../boot/link-in-head.ts';
import { readBootManifest } from '../boot/read-boot-manifest.ts';

let extrasLinked = false;

let extrasFetched: Promise<void> = Promise.resolve();

/**
 * Links the web manifest and fetches the web fonts into the cache, once; the
 * promise settles when the fonts are at hand (or could not be had).
 */
export function linkPageExtras(document: Document, fetch: typeof window.fetch): Promise<void> {
  if (extrasLinked) return extrasFetched;
  extrasLinked = true;
  const manifest = readBootManifest(document);
  if (!manifest) return extrasFetched;
  const { manifest: webManifest, stylesheets, fonts } = manifest.afterFirstPaint;
  if (webManifest) linkInHead(document, 'manifest', webManifest);
  extrasFetched = Promise.all(
    [...stylesheets, ...fonts].map((file) =>
      fetch(file)
        .then((response) => response.arrayBuffer())
        .catch(() => {
          // Not now: the fonts are fetched again when they are linked.
        }),
    ),
  ).then(() => undefined);
  return extrasFetched;
}

let fontsLinked = false;

/**
 * Links the web fonts' style sheet, once: when the app is running and the
 * browser idle, or at the visitor's first switch of view if that comes first
 * (it lays the page out anyway). Never on arrival: the page arrives in the
 * fallback fonts of the same metrics, and putting the web fonts in their place
 * then would lay the whole page out a second time on the phone's main thread
 * while it loads. `font-display: optional`: fonts not at hand when linked are
 * not swapped in later, so the one layout they cost comes at a moment chosen
 * here, never in the middle of what the visitor is doing.
 */
export function linkWebFonts(document: Document): void {
  if (fontsLinked) return;
  fontsLinked = true;
  for (const href of readBootManifest(document)?.afterFirstPaint.stylesheets ?? []) {
    linkInHead(document, 'stylesheet', href);
  }
}
