/**
 * The link in a booking e-mail that marks the request answered: a page of the
 * site whose address carries the request's signed token after `#answer=`
 * (supabase/migrations/20261201000200_notifications.sql makes and checks
 * tokens). In the fragment, the token never reaches a server's logs, and
 * opening the page changes nothing: only its button does.
 */

/** The fragment's prefix: `https://site/#answer=<token>`. */
export const answerLinkPrefix = 'answer=';

/** A token as the database makes them: `<booking id>.<expiry, Unix seconds>.<HMAC hex>`. */
const tokenPattern =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(\d{1,12})\.([0-9a-f]{64})$/;

/** The answer page's address for `token` on the site at `siteUrl`. */
export function answerLink(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/#${answerLinkPrefix}${token}`;
}

export interface AnswerToken {
  token: string;
  bookingId: string;
  expiresAt: Date;
}

/**
 * The token a URL fragment (without `#`) carries, or undefined when it is no
 * answer link or its token is malformed. Only the database can tell whether
 * the token is genuine.
 */
export function parseAnswerFragment(fragment: string): AnswerToken | undefined {
  if (!fragment.startsWith(answerLinkPrefix)) return undefined;
  const token = fragment.slice(answerLinkPrefix.length).trim().toLowerCase();
  const match = tokenPattern.exec(token);
  if (!match) return undefined;
  return { token, bookingId: match[1]!, expiresAt: new Date(Number(match[2]) * 1000) };
}
