import { once } from 'node:events';
import { mkdirSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../supabase/functions/_shared/db/database.ts';
import { httpExchange, serveApp, type RunningServer } from '../testing/helpers.ts';
import { useTempDir } from '../testing/temp-dir.ts';

const html = `<!doctype html><html><head><title>Hijama Rochester</title></head><body>${'<p>Cupping</p>'.repeat(200)}</body></html>`;
const script = `export const views = ${JSON.stringify(Array.from({ length: 300 }, (_, i) => `view-${i}`))};`;

const root = useTempDir('site', { once: true });
let server: RunningServer;

beforeAll(async () => {
  const dist = path.join(root(), 'dist');
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), html);
  writeFileSync(path.join(dist, 'assets', 'index-4f2a9c.js'), script);
  writeFileSync(path.join(dist, 'assets', 'logo-77aa01.png'), Buffer.alloc(4096, 1));
  writeFileSync(
    path.join(dist, 'assets', 'view-benefits-9b1c.htm'),
    '<main><h1>Benefits</h1></main>',
  );
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(dist, '.env'), 'SECRET=1');
  writeFileSync(path.join(root(), 'outside.txt'), 'outside the site');
  symlinkSync(path.join(root(), 'outside.txt'), path.join(dist, 'linked.txt'));
  // No request of these tests reaches the database.
  server = await serveApp({} as Database, { distDir: dist });
});

afterAll(() => server?.close());

/**
 * A raw request, its path sent as written, dot segments included: fetch would
 * decompress and hide Content-Encoding.
 */
function get(pathname: string, headers: Record<string, string> = {}, method = 'GET') {
  const { hostname, port } = new URL(server.baseUrl);
  return httpExchange({ hostname, port, path: pathname, method, headers });
}

describe('the static site', () => {
  const year = 'public, max-age=31536000, immutable';
  it.each([
    // The page, always revalidated.
    ['/', 'text/html; charset=utf-8', 'no-cache', html],
    // Hashed assets, cached for a year.
    ['/assets/index-4f2a9c.js', 'text/javascript; charset=utf-8', year, script],
    ['/assets/logo-77aa01.png', 'image/png', year, Buffer.alloc(4096, 1).toString()],
    ['/assets/view-benefits-9b1c.htm', 'text/html; charset=utf-8', year, undefined],
  ])('serves %s as %s, %s', async (pathname, type, cacheControl, body) => {
    const response = await get(pathname);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(type);
    expect(response.headers['cache-control']).toBe(cacheControl);
    if (body !== undefined) expect(response.text).toBe(body);
  });

  it('serves a pre-rendered view as a part of the page: loading nothing, not indexed', async () => {
    const response = await get('/assets/view-benefits-9b1c.htm');
    expect(response.headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect(response.headers['x-robots-tag']).toBe('noindex');
    expect((await get('/')).headers['x-robots-tag']).toBeUndefined();
  });

  it.each([
    '/llms.txt',
    '/.well-known/security.txt',
    '/contact',
    '/assets/missing.js',
    '/assets',
    '/assets/',
    '/.env',
    '/linked.txt',
    '/../outside.txt',
    '/assets/../../outside.txt',
    '/%2e%2e/outside.txt',
    '/assets/..%2f..%2foutside.txt',
    '/assets%2Fview-benefits-9b1c.htm',
    '/index.html%00',
    '/auth/v1/token',
  ])('answers %s with a plain 404, never the page', async (pathname) => {
    const response = await get(pathname);
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.text).toBe('Not Found');
  });

  it('compresses text with brotli or gzip as the client accepts, and says it varies', async () => {
    const brotli = await get('/', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['vary']).toBe('Accept-Encoding');
    expect(brotliDecompressSync(brotli.body).toString()).toBe(html);
    expect(brotli.body.length).toBeLessThan(html.length / 4);

    const gzip = await get('/assets/index-4f2a9c.js', { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(script);

    const identity = await get('/');
    expect(identity.headers['content-encoding']).toBeUndefined();
  });

  it.each(['/assets/logo-77aa01.png', '/favicon.svg'])(
    'does not compress an image or a tiny file: %s',
    async (pathname) => {
      const response = await get(pathname, { 'Accept-Encoding': 'br' });
      expect(response.headers['content-encoding']).toBeUndefined();
    },
  );

  it('answers a repeated request with 304 from its ETag or its date', async () => {
    const first = await get('/assets/index-4f2a9c.js');
    const etag = first.headers['etag'] as string;
    expect(etag).toMatch(/^W\/".+"$/);
    const byTag = await get('/assets/index-4f2a9c.js', { 'If-None-Match': etag });
    expect(byTag.status).toBe(304);
    expect(byTag.body.length).toBe(0);
    const byDate = await get('/assets/index-4f2a9c.js', {
      'If-Modified-Since': first.headers['last-modified'] as string,
    });
    expect(byDate.status).toBe(304);
    expect((await get('/assets/index-4f2a9c.js', { 'If-None-Match': 'W/"other"' })).status).toBe(
      200,
    );
  });

  it('closes a large file when the visitor leaves before its end', async () => {
    const video = path.join(root(), 'dist', 'assets', 'visit-5e6f.mp4');
    writeFileSync(video, Buffer.alloc(9 * 1024 * 1024, 7));
    const openHere = () =>
      readdirSync('/proc/self/fd').some((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === video;
        } catch {
          return false; // closed meanwhile
        }
      });
    const { hostname, port } = new URL(server.baseUrl);
    const request = httpRequest({ hostname, port, path: '/assets/visit-5e6f.mp4' });
    const [response] = (await once(request.end(), 'response')) as [IncomingMessage];
    expect(response.headers['content-length']).toBe(String(9 * 1024 * 1024));
    expect(openHere()).toBe(true);
    request.destroy();
    await expect.poll(openHere).toBe(false);
  });

  it('answers HEAD with the headers and no body', async () => {
    const response = await get('/', {}, 'HEAD');
    expect(response.status).toBe(200);
    expect(response.headers['content-length']).toBe(String(Buffer.byteLength(html)));
    expect(response.body.length).toBe(0);
  });

  it('refuses other methods', async () => {
    const response = await get('/', {}, 'POST');
    expect(response.status).toBe(405);
    expect(response.headers['allow']).toBe('GET, HEAD');
  });
});
