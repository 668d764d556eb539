/**
 * What the page needs only once the visitor acts (src/main.tsx), so that a
 * visitor who only reads costs the phone none of it: the web manifest (the
 * browser reads it and draws its icons; it offers to install a site only
 * after the visitor has engaged with it anyway).
 */
import { linkInHead } from '../boot/link-in-head.ts';
import { readBootManifest } from '../boot/read-boot-manifest.ts';

let extrasLinked = false;

/** Links the web manifest, once. */
export function linkPageExtras(document: Document): void {
  if (extrasLinked) return;
  extrasLinked = true;
  const webManifest = readBootManifest(document)?.afterFirstPaint.manifest;
  if (webManifest) linkInHead(document, 'manifest', webManifest);
}
