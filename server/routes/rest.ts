import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { bookingsTable } from '../../supabase/functions/_shared/core/api-defaults.ts';
import type { BookingsRepository } from '../../supabase/functions/_shared/db/bookings-repository.ts';
import {
  DatabaseError,
  DatabaseUnavailableError,
} from '../../supabase/functions/_shared/db/database.ts';
import { sameSecret } from '../../supabase/functions/_shared/same-secret.ts';
import { apiCorsHeaders, apiMethods, preflightHeaders } from '../http/cors.ts';
import {
  ApiError,
  databaseUnavailable,
  fromDatabaseError,
  internalError,
  invalidApiKey,
  invalidPath,
  invalidSchema,
  noApiKey,
  permissionDenied,
  tableNotFound,
  unsupportedMethod,
} from '../http/api-errors.ts';
import { ClientGoneError } from '../http/read-body.ts';
import { sendApiError } from '../http/send-json.ts';
import { allowedMethods, insertBookings } from './bookings.ts';
import { callRpc, type RpcDeps } from './rpc.ts';

/**
 * The PostgREST-compatible API under `/rest/v1`, for the page and its anon
 * key alone. Only the bookings table exists, for inserts, the function that issues proof-of-work challenges during a flood
 * and the ones that mark a request answered from the e-mail's link and take
 * the mark back (rpc.ts); every answer
 * carries CORS headers and every error PostgREST's shape. `npx hijama` does
 * not come this way: it reads and writes by SQL (server/db/pglite-socket.ts).
 */

export const restPrefix = '/rest/v1';

export interface RestDeps extends RpcDeps {
  bookings: BookingsRepository;
  /** The public key the page sends (ANON_KEY). */
  anonKey: string;
  logError: (message: string, error: unknown) => void;
}

const knownMethods = new Set(apiMethods);

export function createRestHandler(deps: RestDeps) {
  return async function handleRest(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    /** The client's address as the server trusts it (TRUST_PROXY); undefined when unknown. */
    clientAddress: string | undefined,
  ) {
    const method = req.method ?? 'GET';
    try {
      if (method === 'OPTIONS') {
        res.writeHead(200, {
          ...preflightHeaders(req),
          Allow: allowedMethods,
          'Content-Length': '0',
        });
        res.end();
        return;
      }
      if (!knownMethods.has(method)) throw unsupportedMethod(method, allowedMethods);
      // Only the `public` schema is exposed, as on a default Supabase project.
      const profile = req.headers['content-profile'] ?? req.headers['accept-profile'];
      if (profile !== undefined && profile !== 'public') throw invalidSchema(profile);
      authenticate(req.headers, deps.anonKey);

      const rpc = /^\/rpc\/([^/]+)$/.exec(url.pathname.slice(restPrefix.length));
      if (rpc) return await callRpc(rpc[1]!, req, res, url, deps, clientAddress);
      const table = tableOf(url.pathname);
      if (table !== bookingsTable) throw tableNotFound(table);
      if (method !== 'POST') {
        // Anonymous callers may not read or change bookings: refused by privilege, as PostgREST would.
        throw permissionDenied();
      }
      return await insertBookings(req, res, url, clientAddress, deps.bookings);
    } catch (error) {
      const apiError = toApiError(error, deps.logError);
      if (apiError === undefined || res.headersSent) res.destroy();
      else sendApiError(res, apiError, apiCorsHeaders);
    }
  };
}

/**
 * Supabase's key check without JWTs: the `apikey` header must be the anon key
 * (as Supabase's gateway demands), and so must `Authorization: Bearer <key>`
 * when present. The API serves the page alone, and the page holds only the
 * anon key: the practice reads and changes requests by SQL (`npx hijama`).
 */
function authenticate(headers: IncomingHttpHeaders, anonKey: string): void {
  const apikey = [headers['apikey']].flat()[0];
  if (apikey === undefined || apikey === '') throw noApiKey();
  if (!sameSecret(apikey, anonKey)) throw invalidApiKey();

  const authorization = headers.authorization;
  if (authorization === undefined) return;
  const token = /^Bearer +(\S+) *$/i.exec(authorization)?.[1];
  if (token === undefined || !sameSecret(token, anonKey)) throw invalidApiKey(true);
}

/** `/rest/v1/<table>`; anything deeper (or the root) is not a path PostgREST serves. */
function tableOf(pathname: string): string {
  const match = /^\/([^/]+)$/.exec(pathname.slice(restPrefix.length));
  try {
    if (match) return decodeURIComponent(match[1]!);
  } catch {
    // A malformed escape names no table.
  }
  throw invalidPath();
}

function toApiError(
  error: unknown,
  logError: (message: string, error: unknown) => void,
): ApiError | undefined {
  if (error instanceof ClientGoneError) return undefined;
  if (error instanceof ApiError) return error;
  if (error instanceof DatabaseUnavailableError) {
    // One line per refused request: an outage is expected, and its stack says nothing new.
    logError('Database unavailable:', error.message);
    return databaseUnavailable();
  }
  if (error instanceof DatabaseError) {
    const apiError = fromDatabaseError(error);
    if (apiError.status >= 500) logError('Database error', error);
    return apiError;
  }
  logError('Unexpected error in the REST API', error);
  return internalError();
}
