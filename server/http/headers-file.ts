import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { contentSecurityPolicyFor, securityHeaders } from './security-headers.ts';

/**
 * dist/_headers: the security headers the project's server sends with each
 * file of the built site, for the static hosts that read such a file (Netlify,
 * Cloudflare Pages). A page's <meta> policy cannot carry frame-ancestors or
 * nosniff; this file can. Written by the build (scripts/prerender.ts).
 *
 * Both hosts apply every rule whose path matches, so each file must match
 * exactly one Content-Security-Policy: the headers shared by all files go
 * under `/*`, and each file's policy under its own path (the pages' policies
 * differ by the hashes of their inline scripts).
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
  });
  const rules = [rule('/*', securityHeaders)];
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
