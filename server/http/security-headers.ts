/**
 * The security headers of the built site's files, in one place: the project's
 * server sends them (routes/static-site.ts), and the build writes the same
 * into dist/_headers for static hosts that read it (headers-file.ts).
 */

/**
 * Sent with every file: no sniffing, no framing, no referrer leaks, no powerful
 * features. The policy names only features Chromium knows (it warns in the
 * console of every page about any other, e.g. `bluetooth`).
 */
export const securityHeaders: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy':
    'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), interest-cohort=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** Forbids framing; a policy in a <meta> tag cannot say so, only a header can. */
const frameAncestors = "frame-ancestors 'none'";

/**
 * The page's Content-Security-Policy as the build wrote it into its <meta> tag
 * (with the hashes of its inline scripts), repeated as a header with
 * frame-ancestors. Files other than pages may load nothing at all.
 */
export function contentSecurityPolicyFor(extension: string, content: string | undefined): string {
  if (extension !== '.html' || content === undefined)
    return `default-src 'none'; ${frameAncestors}`;
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/i.exec(content);
  // A page without a policy of its own (a pre-rendered view, fetched by the
  // page's script rather than opened) loads nothing either.
  return meta?.[1] ? `${meta[1]}; ${frameAncestors}` : `default-src 'none'; ${frameAncestors}`;
}
