import { readFileSync } from 'node:fs';
import path from 'node:path';
import { siteUrlFrom } from '../supabase/functions/_shared/content/site-url.ts';

/**
 * What is wrong when the site in `distDir` was built for another address than
 * SITE_URL (its canonical link and sitemap name it), for `npx hijama check`
 * and the server's start; undefined when it matches, is not built, or
 * SITE_URL is unset.
 */
export function builtForAnotherSite(distDir: string, siteUrl: string | undefined) {
  if (!siteUrl?.trim()) return undefined;
  let html: string;
  try {
    html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  } catch {
    return undefined;
  }
  const builtFor = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
  const wanted = siteUrlFrom(siteUrl);
  if (builtFor === undefined || builtFor === wanted) return undefined;
  return `The site in ${distDir} was built for ${builtFor}, not SITE_URL (${wanted}): its canonical link and sitemap name that address. Build it again with SITE_URL set (\`npm run build\`).`;
}
