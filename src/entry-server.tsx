/**
 * Build-time rendering, run by scripts/prerender.mjs: the home view as HTML (so
 * the first paint needs no JavaScript and the page reads fine without it), and
 * the files generated from the content: head tags, robots.txt, sitemap.xml, the
 * web manifest and llms.txt.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from './app/app.tsx';
import { site } from './content/site.ts';
import { contentSecurityPolicy } from './seo/content-security-policy.ts';
import { documentHead } from './seo/document-head.ts';
import { llmsTxt } from './seo/llms-txt.ts';
import { robotsTxt, sitemapXml, webManifest } from './seo/site-files.ts';

export function renderHome(): string {
  return renderToString(
    <StrictMode>
      <App initialPageName="home" />
    </StrictMode>,
  );
}

export function renderHead(options: { preloadFonts: readonly string[] }): string {
  return documentHead(site, options);
}

/** The policy for the built page, allowing requests to the Supabase project it was built for. */
export function renderContentSecurityPolicy(hashes: {
  scripts: readonly string[];
  styles: readonly string[];
}): string {
  const supabaseUrl = import.meta.env.VITE_SUPABASE_URL;
  return contentSecurityPolicy({
    scriptHashes: hashes.scripts,
    styleHashes: hashes.styles,
    connectOrigins: supabaseUrl ? [new URL(supabaseUrl).origin] : [],
  });
}

export const siteFiles: Record<string, string> = {
  'robots.txt': robotsTxt(site),
  'sitemap.xml': sitemapXml(site),
  'manifest.webmanifest': webManifest(site),
  'llms.txt': llmsTxt(site),
};
