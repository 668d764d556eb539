import type { IncomingMessage } from 'node:http';
import type { SiteFile } from './site-file.ts';

/** A file's validators (ETag, Last-Modified) and whether the client's copy is still current. */

/** Weak: the same size and time of change, not a hash of the bytes. */
export function etagOf(file: SiteFile): string {
  return `W/"${file.size.toString(16)}-${Math.floor(file.mtimeMs).toString(16)}"`;
}

export function lastModifiedOf(file: SiteFile): string {
  return new Date(file.mtimeMs).toUTCString();
}

/** If-None-Match decides when sent; If-Modified-Since only without it. */
export function isFresh(req: IncomingMessage, file: SiteFile): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
    const etag = etagOf(file);
    return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
  }
  const ifModifiedSince = req.headers['if-modified-since'];
  if (ifModifiedSince !== undefined) {
    const since = Date.parse(ifModifiedSince);
    return !Number.isNaN(since) && Math.floor(file.mtimeMs / 1000) * 1000 <= since;
  }
  return false;
}
