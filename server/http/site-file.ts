import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/** Finding the built file a URL path names, and keeping what is made from it. */

export interface SiteFile {
  /** Its real path, symbolic links resolved. */
  path: string;
  size: number;
  mtimeMs: number;
}

/** The built file a URL path names, or undefined: no directories, no dot-files, nothing outside the root. */
export async function findSiteFile(root: string, pathname: string): Promise<SiteFile | undefined> {
  // Split before decoding: an encoded slash (`/assets%2F…`) is no folder's, or
  // the rules read from the path as sent (caching, noindex) would miss the file.
  let segments: string[];
  try {
    segments = (pathname === '/' ? '/index.html' : pathname)
      .split('/')
      .slice(1)
      .map(decodeURIComponent);
  } catch {
    return undefined;
  }
  const acceptable = (segment: string) =>
    segment !== '' &&
    !segment.includes('/') &&
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

/**
 * What is made from built files (a page's text, a compressed copy), made once
 * per version of the file and encoding and kept in memory, at most `maxLength`
 * of the values' lengths, oldest dropped first; concurrent requests share one
 * making.
 */
export class SiteFileCache<Encoding extends string, Value extends { length: number }> {
  private readonly entries = new Map<string, Promise<Value>>();
  private readonly lengths = new Map<string, number>();
  private total = 0;

  constructor(
    private readonly make: (file: SiteFile, encoding: Encoding) => Promise<Value>,
    private readonly maxLength: number,
  ) {}

  async get(file: SiteFile, encoding: Encoding): Promise<Value> {
    const key = `${file.path}\0${file.size}\0${file.mtimeMs}\0${encoding}`;
    const cached = this.entries.get(key);
    if (cached) return cached;
    const pending = this.make(file, encoding);
    this.entries.set(key, pending);
    try {
      const value = await pending;
      this.lengths.set(key, value.length);
      this.total += value.length;
      this.evict();
      return value;
    } catch (error) {
      this.entries.delete(key);
      throw error;
    }
  }

  private evict() {
    for (const key of this.entries.keys()) {
      if (this.total <= this.maxLength) return;
      // Still being made: not counted yet, so not dropped either (its length,
      // counted when it comes, would otherwise never be taken off).
      const length = this.lengths.get(key);
      if (length === undefined) continue;
      this.total -= length;
      this.lengths.delete(key);
      this.entries.delete(key);
    }
  }
}
