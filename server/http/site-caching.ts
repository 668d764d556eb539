/**
 * How long a browser may keep each built file of the site without asking
 * again, in one place: the project's server sends it (routes/static-site.ts),
 * and the build writes the same into dist/_headers for static hosts that read
 * it (headers-file.ts), whose own default revalidates every file on every use.
 */

/** Vite's output folder: every file in it has a hash of its content in its name. */
export const hashedAssetsPrefix = '/assets/';

/** A hashed file never changes under its name: kept for a year, never revalidated. */
export const hashedAssetCacheControl = 'public, max-age=31536000, immutable';

/** The Cache-Control of the file at `pathname`: pages and the rest are revalidated on every use. */
export function cacheControlFor(pathname: string): string {
  return pathname.startsWith(hashedAssetsPrefix) ? hashedAssetCacheControl : 'no-cache';
}
