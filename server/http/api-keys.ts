import type { IncomingHttpHeaders } from 'node:http';
import { sameSecret } from '../../supabase/functions/_shared/same-secret.ts';
import { invalidApiKey, noApiKey } from './api-errors.ts';

/**
 * Supabase's key check without JWTs: the `apikey` header must be the anon key
 * (as Supabase's gateway demands), and so must `Authorization: Bearer <key>`
 * when present. The API serves the page alone, and the page holds only the
 * anon key: the practice reads and changes requests by SQL (`npx hijama`).
 */
export function authenticate(headers: IncomingHttpHeaders, anonKey: string): void {
  const apikey = [headers['apikey']].flat()[0];
  if (apikey === undefined || apikey === '') throw noApiKey();
  if (!sameSecret(apikey, anonKey)) throw invalidApiKey();

  const authorization = headers.authorization;
  if (authorization === undefined) return;
  const token = /^Bearer +(\S+) *$/i.exec(authorization)?.[1];
  if (token === undefined || !sameSecret(token, anonKey)) throw invalidApiKey(true);
}
