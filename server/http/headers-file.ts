import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isViewFile } from '../../src/boot/protocol.ts';
import { contentSecurityPolicyFor, securityHeaders } from './security-headers.ts';
import { hashedAssetCacheControl, hashedAssetsPrefix } from './site-caching.ts';

/**
 * dist/_headers: the security headers the project's server sends with each
 * file of the built site, for the static hosts that read such a file (Netlify,
 * Cloudflare Pages). A page's <meta> policy cannot carry frame-ancestors or
 * nosniff; this file can. Written by the build (scripts/prerender.ts).
 *
 * Both hosts apply every rule whose path matches, so each file must match
 * exactly one Content-Security-Policy: the headers shared by all files go
 * under `/*`, and each file's policy under its own path (the pages' policies
 * differ by the hashes of their inline scripts). The hashed files of
 * `/assets/` are cached for good, as the server sends them: both hosts
 * otherwise send `max-age=0, must-revalidate`, and a returning visitor's
 * browser would ask again for each of them, the preloaded fonts that the first
 * paint waits for among them, a round trip more before the page shows. A
 * pre-rendered view's file carries `noindex`, as from the server.
 */

export const headersFileName = '_headers';

interface BuiltFile {
  /** The path the file is served at, e.g. `/index.html`. */
  urlPath: string;
  /** Its text, for a page (its <meta> policy); undefined for other files. */
  html?: string;
}

function composeHeadersFile(files: readonly BuiltFile[]): string {
  const rule = (pathPattern: string, headers: Record<string, string>) =>
    [pathPattern, ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`)].join(
      '\n',
    );
  const policy = (file: BuiltFile) => ({
    'Content-Security-Policy': contentSecurityPolicyFor(
      path.extname(file.urlPath).toLowerCase(),
      file.html,
    ),
    ...(isViewFile(file.urlPath) ? { 'X-Robots-Tag': 'noindex' } : {}),
  });
  const rules = [
    rule('/*', securityHeaders),
    rule(`${hashedAssetsPrefix}*`, { 'Cache-Control': hashedAssetCacheControl }),
  ];
  for (const file of [...files].sort((a, b) => a.urlPath.localeCompare(b.urlPath))) {
    rules.push(rule(file.urlPath, policy(file)));
    // The site's address without a file name is its home page.
    if (file.urlPath === '/index.html') rules.push(rule('/', policy(file)));
  }
  return `${rules.join('\n')}\n`;
}

/** Writes `_headers` for every file of `distDir` (itself excepted). */
export async function writeHeadersFile(distDir: string): Promise<string> {
  const entries = await readdir(distDir, { recursive: true, withFileTypes: true });
  const files: BuiltFile[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || entry.name === headersFileName) continue;
    const filePath = path.join(entry.parentPath, entry.name);
    const urlPath = `/${path.relative(distDir, filePath).split(path.sep).join('/')}`;
    files.push(
      path.extname(entry.name).toLowerCase() === '.html'
        ? { urlPath, html: await readFile(filePath, 'utf8') }
        : { urlPath },
    );
  }
  const target = path.join(distDir, headersFileName);
  await writeFile(target, composeHeadersFile(files));
  return target;
}
