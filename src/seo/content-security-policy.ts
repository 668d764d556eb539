interface PolicyOptions {
  /** sha256 hashes (base64) of the page's inline scripts. */
  scriptHashes: readonly string[];
  /** Origins the page may send requests to besides its own, e.g. a Supabase project. */
  connectOrigins: readonly string[];
}

/**
 * The page's Content-Security-Policy: everything from its own origin, inline
 * scripts only by hash, no inline styles, no plugins, no framing. It goes into
 * the HTML as a meta tag (so static hosts apply it too) and the project's server
 * repeats it as a header with frame-ancestors, which a meta tag cannot carry.
 */
export function contentSecurityPolicy({ scriptHashes, connectOrigins }: PolicyOptions): string {
  const hashes = scriptHashes.map((hash) => `'sha256-${hash}'`);
  return [
    "default-src 'self'",
    ["script-src 'self'", ...hashes].join(' '),
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    ["connect-src 'self'", ...connectOrigins].join(' '),
    "manifest-src 'self'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}
