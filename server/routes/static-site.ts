import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { isViewFile } from '../../src/boot/protocol.ts';
import { fileNotFound, siteMethodNotAllowed, type SiteError } from '../http/api-errors.ts';
import { chooseEncoding, compress, worthCompressing, type Encoding } from '../http/compression.ts';
import { etagOf, isFresh, lastModifiedOf } from '../http/conditional-get.ts';
import { contentTypeFor } from '../http/content-types.ts';
import { contentSecurityPolicyFor, securityHeaders } from '../http/security-headers.ts';
import { cacheControlFor } from '../http/site-caching.ts';
import { findSiteFile, SiteFileCache } from '../http/site-file.ts';

/**
 * The built site (Vite's `dist/`). The site has no URL routes, so a path that
 * is not a built file answers a plain 404, never the page: `/llms.txt` or
 * `/.well-known/…` must not come back as HTML.
 */

/** Larger files (videos, say) are streamed as they are, neither read whole nor compressed. */
const maxBufferedBytes = 8 * 1024 * 1024;

/** Most bytes of compressed files kept in memory. */
const maxCompressedBytes = 64 * 1024 * 1024;

/** Most characters of pages kept in memory (the site has a handful, of some kilobytes). */
const maxPageCharacters = 16 * 1024 * 1024;

export function createStaticSite(distDir: string) {
  const root = path.resolve(distDir);
  const compressedFiles = new SiteFileCache(
    (file, encoding: Encoding) =>
      readFile(file.path).then((content) => compress(content, encoding)),
    maxCompressedBytes,
  );
  // Pages read for their security policy.
  const pageTexts = new SiteFileCache(
    (file, encoding: 'utf8') => readFile(file.path, encoding),
    maxPageCharacters,
  );

  return async function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string) {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendError(res, siteMethodNotAllowed());
      return;
    }
    const file = await findSiteFile(root, pathname);
    if (!file) {
      sendError(res, fileNotFound());
      return;
    }

    const extension = path.extname(file.path).toLowerCase();
    const buffered = file.size <= maxBufferedBytes;
    const headers: Record<string, string> = {
      'Content-Type': contentTypeFor(extension),
      'Cache-Control': cacheControlFor(pathname),
      ETag: etagOf(file),
      'Last-Modified': lastModifiedOf(file),
      ...securityHeaders,
      'Content-Security-Policy': contentSecurityPolicyFor(
        extension,
        extension === '.html' && buffered ? await pageTexts.get(file, 'utf8') : undefined,
      ),
      // A part of the page, for its script to fetch: not a page to list.
      ...(isViewFile(pathname) ? { 'X-Robots-Tag': 'noindex' } : {}),
    };
    const mayCompress = buffered && worthCompressing(extension, file.size);
    if (mayCompress) headers['Vary'] = 'Accept-Encoding';

    if (isFresh(req, file)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }

    if (!buffered) {
      res.writeHead(200, { ...headers, 'Content-Length': String(file.size) });
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      // pipeline, not pipe: a visitor who leaves before the end closes the file too.
      pipeline(createReadStream(file.path), res, () => {});
      return;
    }

    const encoding = mayCompress ? chooseEncoding(req.headers['accept-encoding']) : undefined;
    let body: Buffer;
    if (encoding) {
      body = await compressedFiles.get(file, encoding);
      headers['Content-Encoding'] = encoding;
    } else {
      body = await readFile(file.path);
    }
    res.writeHead(200, { ...headers, 'Content-Length': String(body.length) });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
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
