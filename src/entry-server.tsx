/**
 * Build-time rendering, run by scripts/prerender.ts: the home view as HTML (so
 * the first paint needs no JavaScript and the page reads fine without it), every
 * other page as the browser renders it on arrival there (shown before its
 * script arrives, then adopted by it), and the files generated from the
 * content: head tags, robots.txt, sitemap.xml, the web manifest and llms.txt.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { prerender } from 'react-dom/static';
import { App } from './app/app.tsx';
import { pageNames, site, type PageName } from './content/site.ts';
import { contentSecurityPolicy } from './seo/content-security-policy.ts';
import { documentHead } from './seo/document-head.ts';
import { llmsTxt } from './seo/llms-txt.ts';
import { robotsTxt, sitemapXml, webManifest } from './seo/site-files.ts';
import faviconSvg from '../public/favicon.svg?raw';

/** The app as the browser starts it on arrival at `pageName`. */
const appAt = (pageName: string) => (
  <StrictMode>
    <App initialPageName={pageName} />
  </StrictMode>
);

export function renderHome(): string {
  return renderToString(appAt('home'));
}

/**
 * The pages besides home whose markup goes into the HTML itself: the booking
 * page, where the Instagram profile's link and most shared links point. The
 * page must stay under about 14 KB, what the first round trip of a new
 * connection carries (budgets.spec.ts), or every first paint, home's included,
 * waits one round trip more; the other pages are fetched as pre-rendered
 * files of their own by the boot script (src/boot/start-page.ts).
 */
export const inPageViews: readonly PageName[] = ['contact'];

/**
 * The inside of #root for every page besides home, as the browser renders it
 * on arrival at that page: the script adopts it (hydrates) instead of painting
 * it again. Every page's code is waited for, which a plain render to string
 * cannot do for the pages loaded on demand.
 */
export async function renderOtherViews(): Promise<Record<string, string>> {
  const pages = pageNames.filter((name) => name !== 'home');
  return Object.fromEntries(
    await Promise.all(pages.map(async (pageName) => [pageName, await renderApp(pageName)])),
  );
}

async function renderApp(pageName: PageName): Promise<string> {
  const { prelude } = await prerender(
    appAt(pageName),
    // Never split a large page into parts joined up by an inline script: the
    // policy allows no such script, and the markup must stand on its own.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  return new Response(prelude).text();
}

/** The page's language. */
export const locale = site.locale;

/** Where the web manifest is served (written from siteFiles below). */
export const manifestPath = '/manifest.webmanifest';

/**
 * The head's tags. What the page's script adds later (the manifest) is there
 * for browsers without JavaScript in a <noscript>.
 */
export function renderHead(afterFirstPaint: { manifest: string }): string {
  return documentHead(site, { faviconSvg, afterFirstPaint });
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
  [manifestPath.slice(1)]: webManifest(site),
  'llms.txt': llmsTxt(site),
};
