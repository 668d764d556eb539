import type { IncomingMessage } from 'node:http';

/**
 * CORS as Supabase's API answers it: any origin, no credentials, so a site
 * hosted elsewhere can post bookings. The exposed headers are PostgREST's.
 */

export const apiCorsHeaders: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers':
    'Content-Encoding, Content-Location, Content-Range, Content-Type, Date, Location, Server, Transfer-Encoding, Range-Unit',
};

/** Every method the API knows (routes/rest.ts), allowed by a preflight. */
export const apiMethods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** What supabase-js and postgrest-js send, allowed when a preflight names no headers. */
const defaultAllowedHeaders =
  'apikey, authorization, content-type, prefer, x-client-info, accept-profile, content-profile, range, range-unit, x-retry-count';

const headerList = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(?:\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/;

/** Headers answering a preflight (OPTIONS) request. */
export function preflightHeaders(req: IncomingMessage): Record<string, string> {
  const requested = req.headers['access-control-request-headers']?.trim();
  return {
    ...apiCorsHeaders,
    'Access-Control-Allow-Methods': apiMethods.join(', '),
    // Like PostgREST, allow what the browser asks for (header names only).
    'Access-Control-Allow-Headers':
      requested && headerList.test(requested) ? requested : defaultAllowedHeaders,
    'Access-Control-Max-Age': '86400',
  };
}
