import { createReadStream } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { isViewFile } from '../../src/boot/protocol.ts';
import { fileNotFound, siteMethodNotAllowed, type SiteError } from '../http/api-errors.ts';
import { contentSecurityPolicyFor, securityHeaders } from '../http/security-headers.ts';

/**
 * The built site (Vite's `dist/`). The site has no URL routes, so a path that
 * is not a built file answers a plain 404, never the page: `/llms.txt` or
 * `/.well-known/…` must not come back as HTML.
 */

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.pdf': 'application/pdf',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
};

const compressible = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.map',
  '.webmanifest',
  '.txt',
  '.xml',
  '.svg',
  '.ico',
  '.ttf',
  '.otf',
  '.wasm',
]);

/** Below this size compression saves less than the headers it adds. */
const minCompressBytes = 1024;
/** Larger files (videos, say) are streamed as they are. */
const maxBufferedBytes = 8 * 1024 * 1024;
const maxCacheBytes = 64 * 1024 * 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

type Encoding = 'br' | 'gzip';

export function createStaticSite(distDir: string) {
  const root = path.resolve(distDir);
  const compressedCache = new CompressedCache();
  const pageCache = new TextCache();

  return async function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string) {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendError(res, siteMethodNotAllowed());
      return;
    }
    const file = await findFile(root, pathname);
    if (!file) {
      sendError(res, fileNotFound());
      return;
    }

    const extension = path.extname(file.path).toLowerCase();
    const etag = `W/"${file.size.toString(16)}-${Math.floor(file.mtimeMs).toString(16)}"`;
    const lastModified = new Date(file.mtimeMs).toUTCString();
    const headers: Record<string, string> = {
      'Content-Type': contentTypes[extension] ?? 'application/octet-stream',
      'Cache-Control': pathname.startsWith('/assets/')
        ? 'public, max-age=31536000, immutable' // file names carry a content hash
        : 'no-cache',
      ETag: etag,
      'Last-Modified': lastModified,
      ...securityHeaders,
      'Content-Security-Policy': contentSecurityPolicyFor(
        extension,
        extension === '.html' && file.size <= maxBufferedBytes
          ? await pageCache.get(`${file.path}\0${file.mtimeMs}`, () => readFile(file.path, 'utf8'))
          : undefined,
      ),
      // A part of the page, for its script to fetch: not a page to list.
      ...(isViewFile(pathname) ? { 'X-Robots-Tag': 'noindex' } : {}),
    };
    const mayCompress =
      compressible.has(extension) && file.size >= minCompressBytes && file.size <= maxBufferedBytes;
    if (mayCompress) headers['Vary'] = 'Accept-Encoding';

    if (isFresh(req, etag, file.mtimeMs)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }

    if (file.size > maxBufferedBytes) {
      res.writeHead(200, { ...headers, 'Content-Length': String(file.size) });
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      createReadStream(file.path)
        .on('error', () => res.destroy())
        .pipe(res);
      return;
    }

    const encoding = mayCompress ? chooseEncoding(req.headers['accept-encoding']) : undefined;
    let body: Buffer;
    if (encoding) {
      const key = `${file.path}\0${file.size}\0${file.mtimeMs}\0${encoding}`;
      body = await compressedCache.get(key, async () =>
        compress(await readFile(file.path), encoding),
      );
      headers['Content-Encoding'] = encoding;
    } else {
      body = await readFile(file.path);
    }
    res.writeHead(200, { ...headers, 'Content-Length': String(body.length) });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}

interface FoundFile {
  path: string;
  size: number;
  mtimeMs: number;
}

/** The built file a URL path names, or undefined: no directories, no dot-files, nothing outside the root. */
async function findFile(root: string, pathname: string): Promise<FoundFile | undefined> {
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

function isFresh(req: IncomingMessage, etag: string, mtimeMs: number): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
    return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
  }
  const ifModifiedSince = req.headers['if-modified-since'];
  if (ifModifiedSince !== undefined) {
    const since = Date.parse(ifModifiedSince);
    return !Number.isNaN(since) && Math.floor(mtimeMs / 1000) * 1000 <= since;
  }
  return false;
}

/** Brotli when the client takes it, else gzip; `q=0` refuses an encoding. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.split(';').map((text) => text.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (name) weights.set(name, Number.isNaN(weight) ? 0 : weight);
  }
  const weightOf = (encoding: Encoding) => weights.get(encoding) ?? weights.get('*') ?? 0;
  if (weightOf('br') > 0 && weightOf('br') >= weightOf('gzip')) return 'br';
  if (weightOf('gzip') > 0) return 'gzip';
  return undefined;
}

function compress(content: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(content, {
        params: {
          // Quality 11 is several times slower for about 10% less; 9 keeps a first visit quick.
          [zlibConstants.BROTLI_PARAM_QUALITY]: 9,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      })
    : gzipAsync(content, { level: 9 });
}

/** Compressed files kept in memory, oldest dropped first; concurrent requests share one compression. */
class CompressedCache {
  private readonly entries = new Map<string, Promise<Buffer>>();
  private readonly sizes = new Map<string, number>();
  private total = 0;

  async get(key: string, produce: () => Promise<Buffer>): Promise<Buffer> {
    const cached = this.entries.get(key);
    if (cached) return cached;
    const pending = produce();
    this.entries.set(key, pending);
    try {
      const value = await pending;
      this.sizes.set(key, value.length);
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
      if (this.total <= maxCacheBytes) return;
      this.total -= this.sizes.get(key) ?? 0;
      this.sizes.delete(key);
      this.entries.delete(key);
    }
  }
}

/** Pages read once per version, for their security policy. */
class TextCache {
  private readonly entries = new Map<string, Promise<string>>();

  get(key: string, read: () => Promise<string>): Promise<string> {
    let entry = this.entries.get(key);
    if (!entry) {
      if (this.entries.size > 32) this.entries.clear();
      entry = read();
      entry.catch(() => this.entries.delete(key));
      this.entries.set(key, entry);
    }
    return entry;
  }
}

function sendError(res: ServerResponse, { status, text, headers }: SiteError) {
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    'Cache-Control': 'no-cache',
    ...securityHeaders,
    'Content-Security-Policy': contentSecurityPolicyFor('.txt', undefined),
  });
  res.end(res.req.method === 'HEAD' ? undefined : text);
}
