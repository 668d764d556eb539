import { practice } from './practice.ts';

/**
 * SITE_URL: the address the site is published at, read by the server, the
 * Edge Function and the build, so that every link in the e-mails and pushes
 * and the page's canonical link name the same site. Unset, it is
 * `practice.url`, the placeholder of practice.ts.
 */

/** What is wrong with SITE_URL, or undefined when it is usable (or unset). */
export function siteUrlProblem(text: string | undefined): string | undefined {
  const value = text?.trim();
  if (!value) return undefined;
  try {
    const url = new URL(value);
    if (
      ['https:', 'http:'].includes(url.protocol) &&
      url.hostname !== '' &&
      !url.search &&
      !url.hash
    ) {
      // The site's files and its booking API are at the root of its address
      // (/assets/…, /rest/v1/): a path would lead the e-mails' links, and the
      // sitemap, somewhere the site is not.
      if (url.pathname.replace(/\/+$/, '') === '') return undefined;
      return `SITE_URL must be the address of the site itself, without a path: the site is served at the root of its domain (e.g. https://www.example.co.uk/, got "${value}").`;
    }
  } catch {
    // Reported below.
  }
  return `SITE_URL must be the site's address, e.g. https://www.example.co.uk/, without ? or # (got "${value}").`;
}

/** SITE_URL with one trailing slash, or practice.url when unset. Assumes siteUrlProblem found nothing. */
export function siteUrlFrom(text: string | undefined): string {
  const value = text?.trim();
  if (!value) return practice.url;
  return new URL(value).href.replace(/\/*$/, '/');
}
