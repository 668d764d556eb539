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
      return undefined;
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
