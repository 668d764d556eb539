import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { invalidApiKey, invalidBearerToken, noApiKey, type ApiRole } from './api-errors.ts';

/**
 * Supabase's two-key scheme without JWTs: the `apikey` header must be a known
 * key (as Supabase's gateway demands), and `Authorization: Bearer <key>`, when
 * present, decides the role, as the JWT does on hosted Supabase.
 */

export interface ApiKeys {
  anon: string;
  /** Unset: no key can read. */
  serviceRole: string | undefined;
}

export function authenticate(headers: IncomingHttpHeaders, keys: ApiKeys): ApiRole {
  const apikey = single(headers['apikey']);
  if (apikey === undefined || apikey === '') {
    throw noApiKey();
  }
  const keyRole = roleOf(apikey, keys);
  if (!keyRole) throw invalidApiKey();

  const authorization = headers.authorization;
  if (authorization === undefined) return keyRole;
  const token = /^Bearer +(\S+) *$/i.exec(authorization)?.[1];
  const tokenRole = token === undefined ? undefined : roleOf(token, keys);
  if (!tokenRole) throw invalidBearerToken();
  return tokenRole;
}

function roleOf(candidate: string, keys: ApiKeys): ApiRole | undefined {
  if (keys.serviceRole !== undefined && sameSecret(candidate, keys.serviceRole))
    return 'service_role';
  if (sameSecret(candidate, keys.anon)) return 'anon';
  return undefined;
}

/** Compares in constant time, so response timing does not reveal a key's prefix. */
function sameSecret(candidate: string, secret: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(candidate), digest(secret));
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
