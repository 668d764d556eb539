interface PolicyOptions {
  /** sha256 hashes (base64) of the page's inline scripts. */
  scriptHashes: readonly string[];
  /** sha256 hashes (base64) of the page's inline style sheets. */
  styleHashes: readonly string[];
  /** Origins the page may send requests to besides its own, e.g. a Supabase project. */
  connectOrigins: readonly string[];
}

/**
 * The page's Content-Security-Policy: everything from its own origin, inline
 * scripts and style sheets only by hash (no style attributes), no plugins, no
 * framing. Workers only from the page's own files (the booking form's proof of
 * work during a flood), never from blob: or data: URLs. It goes into
 * the HTML as a meta tag (so static hosts apply it too) and the project's server
 * repeats it as a header with frame-ancestors, which a meta tag cannot carry.
 */
export function contentSecurityPolicy({
  scriptHashes,
  styleHashes,
  connectOrigins,
}: PolicyOptions): string {
  const quoted = (hashes: readonly string[]) => hashes.map((hash) => `'sha256-${hash}'`);
  return [
    "default-src 'self'",
    ["script-src 'self'", ...quoted(scriptHashes)].join(' '),
    ["style-src 'self'", ...quoted(styleHashes)].join(' '),
    "img-src 'self' data:",
    "font-src 'self'",
    ["connect-src 'self'", ...connectOrigins].join(' '),
    "worker-src 'self'",
    "manifest-src 'self'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}
