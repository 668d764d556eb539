import type { SiteContent } from '../content/site.ts';
import { absoluteUrl, escapeHtml, jsonForScript } from './html.ts';
import { businessStructuredData } from './structured-data.ts';

interface HeadOptions {
  /** The site's icon (an SVG document), written into the page: one request less before the first paint. */
  faviconSvg: string;
  /**
   * What the page's script adds once the visitor acts (the web manifest): for a
   * browser without JavaScript, the same link in a <noscript>.
   */
  afterFirstPaint: { manifest: string };
}

/**
 * An SVG as a data: URL, with only the characters URLs forbid escaped (about
 * half the size of encoding it as base64).
 */
export function svgDataUrl(svg: string): string {
  const compact = svg.replace(/\s+/g, ' ').replace(/> </g, '><').trim();
  return `data:image/svg+xml,${compact.replace(/["%#<>{}|\\^`[\]]/g, (c) => encodeURIComponent(c))}`;
}

/** Title, description, sharing cards, icons and the business's structured data. */
export function documentHead(
  site: SiteContent,
  { faviconSvg, afterFirstPaint }: HeadOptions,
): string {
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
    // A browser takes the site's icon from here; search engines take a file.
    `<link rel="icon" href="${escapeHtml(svgDataUrl(faviconSvg))}" type="image/svg+xml" />`,
    '<link rel="icon" href="/favicon-32.png" type="image/png" sizes="32x32" />',
    '<link rel="apple-touch-icon" href="/apple-touch-icon.png" />',
    `<noscript><link rel="manifest" href="${escapeHtml(afterFirstPaint.manifest)}" /></noscript>`,
    `<script type="application/ld+json">${jsonForScript(businessStructuredData(site))}</script>`,
  ].join('\n    ');
}
