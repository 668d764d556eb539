/**
 * Build-time rendering, run by scripts/prerender.mjs: the home view as HTML (so
 * the first paint needs no JavaScript and the page reads fine without it), the
 * booking page's content (shown at once by a link to it, before its script
 * arrives), and the files generated from the content: head tags, robots.txt,
 * sitemap.xml, the web manifest and llms.txt.
 */
import { StrictMode, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from './app/app.tsx';
import { NavigationContext } from './app/navigation.ts';
import { site, type PageName } from './content/site.ts';
import { contentSecurityPolicy } from './seo/content-security-policy.ts';
import { documentHead } from './seo/document-head.ts';
import { llmsTxt } from './seo/llms-txt.ts';
import { robotsTxt, sitemapXml, webManifest } from './seo/site-files.ts';
import { ContactView } from './views/contact-view.tsx';

export function renderHome(): string {
  return renderToString(
    <StrictMode>
      <App initialPageName="home" />
    </StrictMode>,
  );
}

/**
 * The pages besides home whose content goes into the HTML, so that a link to
 * them paints them before any script: the booking page, which is where the
 * Instagram profile's link and most shared links point. Each one adds 1 to 1.6
 * KB gzipped; the page must stay under about 14 KB, what the first round trip
 * of a new connection can carry (budgets.spec.ts), or every first paint,
 * home's included, waits one round trip more. The others are rendered by
 * their script.
 */
const prerenderedViews: Partial<Record<Exclude<PageName, 'home'>, ComponentType>> = {
  contact: ContactView,
};

/** The content of `<main>` for the pre-rendered pages besides home, by page name. */
export function renderOtherViews(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(prerenderedViews).map(([pageName, View]) => [
      pageName,
      renderToString(
        <StrictMode>
          <NavigationContext.Provider value={{ pageName, switches: 0, navigate: () => {} }}>
            <View />
          </NavigationContext.Provider>
        </StrictMode>,
      ),
    ]),
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
