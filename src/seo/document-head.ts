import type { SiteContent } from '../content/site.ts';
import { absoluteUrl, escapeHtml, jsonForScript } from './html.ts';
import { businessStructuredData } from './structured-data.ts';

interface HeadOptions {
  /** Built paths of the web fonts the first screen uses, to fetch them without waiting for the layout. */
  preloadFonts?: readonly string[];
}

/** Title, description, sharing cards, icons and the business's structured data. */
export function documentHead(site: SiteContent, { preloadFonts = [] }: HeadOptions = {}): string {
  const { seo } = site;
  const image = absoluteUrl(site.url, seo.shareImage.src);
  const meta = (attribute: 'name' | 'property', key: string, value: string | number) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(String(value))}" />`;
  return [
    `<title>${escapeHtml(seo.title)}</title>`,
    meta('name', 'description', seo.description),
    `<link rel="canonical" href="${escapeHtml(site.url)}" />`,
    meta('name', 'theme-color', seo.themeColor),
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', site.practiceName),
    meta('property', 'og:locale', site.locale.replace('-', '_')),
    meta('property', 'og:title', seo.title),
    meta('property', 'og:description', seo.description),
    meta('property', 'og:url', site.url),
    meta('property', 'og:image', image),
    meta('property', 'og:image:width', seo.shareImage.width),
    meta('property', 'og:image:height', seo.shareImage.height),
    meta('property', 'og:image:alt', seo.shareImage.alt),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', seo.title),
    meta('name', 'twitter:description', seo.description),
    meta('name', 'twitter:image', image),
    meta('name', 'twitter:image:alt', seo.shareImage.alt),
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml" />',
    '<link rel="icon" href="/favicon-32.png" type="image/png" sizes="32x32" />',
    '<link rel="apple-touch-icon" href="/apple-touch-icon.png" />',
    '<link rel="manifest" href="/manifest.webmanifest" />',
    ...preloadFonts.map(
      (font) =>
        `<link rel="preload" href="${escapeHtml(font)}" as="font" type="font/woff2" crossorigin />`,
    ),
    `<script type="application/ld+json">${jsonForScript(businessStructuredData(site))}</script>`,
  ]
    .filter(Boolean)
    .join('\n    ');
}
