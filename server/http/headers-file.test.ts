import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticSite } from '../routes/static-site.ts';
import { serve, type RunningServer } from '../testing/helpers.ts';
import { useTempDir } from '../testing/temp-dir.ts';
import { writeHeadersFile } from './headers-file.ts';

/**
 * dist/_headers against the project's server: for every file, the headers a
 * static host reading the file applies (every rule whose path matches, as
 * Netlify and Cloudflare Pages do) are the ones the server sends.
 */

/** The rules of a `_headers` file: a path pattern and its headers. */
function parseHeadersFile(text: string): { pattern: string; headers: [string, string][] }[] {
  const rules: { pattern: string; headers: [string, string][] }[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (!line.startsWith(' ')) {
      rules.push({ pattern: line.trim(), headers: [] });
      continue;
    }
    const colon = line.indexOf(':');
    rules.at(-1)!.headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return rules;
}

function matches(pattern: string, urlPath: string): boolean {
  return pattern.endsWith('/*') ? urlPath.startsWith(pattern.slice(0, -1)) : pattern === urlPath;
}

const root = useTempDir('headers', { once: true });
let dist: string;
let server: RunningServer;

beforeAll(async () => {
  dist = path.join(root(), 'dist');
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  writeFileSync(
    path.join(dist, 'index.html'),
    `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'sha256-abc='" /></head><body></body></html>`,
  );
  writeFileSync(path.join(dist, 'assets', 'view-benefits-9b1c.htm'), '<main></main>');
  writeFileSync(path.join(dist, 'assets', 'index-4f2a9c.js'), 'export {};');
  writeFileSync(path.join(dist, 'robots.txt'), 'User-agent: *\n');
  writeFileSync(path.join(dist, 'og-image.png'), Buffer.alloc(64, 1));
  const site = createStaticSite(dist);
  server = await serve((req, res) => void site(req, res, new URL(req.url!, 'http://x').pathname));
  await writeHeadersFile(dist);
});

afterAll(() => server?.close());

describe('dist/_headers', () => {
  it.each([
    '/',
    '/index.html',
    '/assets/view-benefits-9b1c.htm',
    '/assets/index-4f2a9c.js',
    '/robots.txt',
    '/og-image.png',
  ])('gives %s the security headers the server sends', async (urlPath) => {
    const rules = parseHeadersFile(readFileSync(path.join(dist, '_headers'), 'utf8'));
    const applied = rules
      .filter((rule) => matches(rule.pattern, urlPath))
      .flatMap((r) => r.headers);
    // One value per header: two policies would both be enforced.
    const names = applied.map(([name]) => name.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('content-security-policy');
    expect(names).toContain('x-content-type-options');

    const response = await fetch(`${server.baseUrl}${urlPath}`);
    expect(response.status).toBe(200);
    for (const [name, value] of applied) {
      expect(`${name}: ${response.headers.get(name)}`).toBe(`${name}: ${value}`);
    }
  });

  it.each([
    ['/assets/view-benefits-9b1c.htm', ['cache-control', 'x-robots-tag']],
    ['/assets/index-4f2a9c.js', ['cache-control']],
  ])('gives %s the caching and indexing headers the server sends', async (urlPath, names) => {
    const rules = parseHeadersFile(readFileSync(path.join(dist, '_headers'), 'utf8'));
    const applied = new Map(
      rules
        .filter((rule) => matches(rule.pattern, urlPath))
        .flatMap((r) => r.headers)
        .map(([name, value]) => [name.toLowerCase(), value]),
    );
    const response = await fetch(`${server.baseUrl}${urlPath}`);
    for (const name of names) {
      expect(response.headers.get(name)).not.toBeNull();
      expect(`${name}: ${applied.get(name)}`).toBe(`${name}: ${response.headers.get(name)}`);
    }
  });

  it("holds the page's own policy, with frame-ancestors, which a meta tag cannot carry", () => {
    const text = readFileSync(path.join(dist, '_headers'), 'utf8');
    expect(text).toContain(
      "/index.html\n  Content-Security-Policy: default-src 'self'; script-src 'self' 'sha256-abc='; frame-ancestors 'none'\n",
    );
  });
});
