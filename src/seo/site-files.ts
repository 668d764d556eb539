import type { SiteContent } from '../content/site.ts';
import { absoluteUrl } from './html.ts';

export function robotsTxt(site: SiteContent): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${absoluteUrl(site.url, '/sitemap.xml')}\n`;
}

/** One URL: the views live behind fragments, which search engines treat as the same page. */
export function sitemapXml(site: SiteContent): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    `  <url><loc>${site.url}</loc></url>`,
    '</urlset>',
    '',
  ].join('\n');
}

export function webManifest(site: SiteContent): string {
  return `${JSON.stringify(
    {
      name: site.practiceName,
      short_name: site.practiceName,
      description: site.seo.description,
      lang: site.locale,
      start_url: '/',
      scope: '/',
      display: 'minimal-ui',
      theme_color: site.seo.themeColor,
      background_color: site.seo.backgroundColor,
      icons: [
        { src: '/favicon.svg', type: 'image/svg+xml', sizes: 'any' },
        { src: '/icon-192.png', type: 'image/png', sizes: '192x192' },
        { src: '/icon-512.png', type: 'image/png', sizes: '512x512' },
        { src: '/icon-512-maskable.png', type: 'image/png', sizes: '512x512', purpose: 'maskable' },
      ],
    },
    null,
    2,
  )}\n`;
}
