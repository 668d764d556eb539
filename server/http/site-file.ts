import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/** Finding the built file a URL path names. */

export interface SiteFile {
  /** Its real path, symbolic links resolved. */
  path: string;
  size: number;
  mtimeMs: number;
}

/** The built file a URL path names, or undefined: no directories, no dot-files, nothing outside the root. */
export async function findSiteFile(root: string, pathname: string): Promise<SiteFile | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname === '/' ? '/index.html' : pathname);
  } catch {
    return undefined;
  }
  const segments = decoded.split('/').slice(1);
  const acceptable = (segment: string) =>
    segment !== '' &&
    !segment.includes('\\') &&
    !segment.includes('\0') &&
    (!segment.startsWith('.') || segment === '.well-known');
  if (!segments.every(acceptable)) return undefined;

  const candidate = path.join(root, ...segments);
  if (!candidate.startsWith(root + path.sep)) return undefined;
  try {
    // A symbolic link must not lead outside the site either.
    const [real, realRoot] = await Promise.all([realpath(candidate), realpath(root)]);
    if (!real.startsWith(realRoot + path.sep)) return undefined;
    const stats = await stat(real);
    return stats.isFile() ? { path: real, size: stats.size, mtimeMs: stats.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}
