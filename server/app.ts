import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Backup } from './db/backup.ts';
import type { BookingsRepository } from './db/bookings-repository.ts';
import type { ApiKeys } from './http/api-keys.ts';
import {
  internalError,
  invalidUrl,
  serverBusy,
  tooManyRequests,
  type ApiError,
} from './http/api-errors.ts';
import type { NotificationStates } from './notifications/notification-states.ts';
import { apiCorsHeaders } from './http/cors.ts';
import { sendApiError } from './http/send-json.ts';
import { clientNetwork } from './limits/client-network.ts';
import { createRateLimiter } from './limits/rate-limiter.ts';
import { createRestHandler, restPrefix } from './routes/rest.ts';
import { createStaticSite } from './routes/static-site.ts';

export interface AppDeps {
  bookings: BookingsRepository;
  /** A consistent backup of the database, for the service key; unset: none is offered. */
  backup?: () => Promise<Backup>;
  keys: ApiKeys;
  /** The notifications' state, read by `npm run bookings` through the server; none when unset. */
  notificationStates?: NotificationStates;
  /** The built site. */
  distDir: string;
  logError?: (message: string, error: unknown) => void;
  /** The API's protections against floods; none when unset. */
  limits?: ApiLimits;
  /** The clock of the rate limit, for tests. */
  now?: () => number;
}

export interface ApiLimits {
  /** API requests one client address may make per minute; 0 = no limit. */
  rateLimitPerMinute: number;
  /** Take the client address from X-Forwarded-For (a reverse proxy in front). */
  trustProxy: boolean;
  /** API requests handled at once; more are refused with 503 rather than queued. */
  maxPendingRequests: number;
}

/** The whole server as a request listener: the booking API under /rest/v1, the built site elsewhere. */
export function createApp(deps: AppDeps): RequestListener {
  const logError = deps.logError ?? logToStderr;
  const handleRest = createRestHandler({
    bookings: deps.bookings,
    backup: deps.backup,
    keys: deps.keys,
    notificationStates: deps.notificationStates,
    logError,
  });
  const serveStatic = createStaticSite(deps.distDir);
  const now = deps.now ?? Date.now;
  const {
    rateLimitPerMinute = 0,
    trustProxy = false,
    maxPendingRequests = Infinity,
  } = deps.limits ?? {};
  const rateLimiter =
    rateLimitPerMinute > 0 ? createRateLimiter({ perMinute: rateLimitPerMinute }) : undefined;
  let pendingApiRequests = 0;

  /** The reason to refuse an API request before any work, if there is one. */
  const refusal = (req: IncomingMessage, client: string): ApiError | undefined => {
    // Preflights are free: each one precedes the request that counts.
    if (req.method === 'OPTIONS') return undefined;
    if (pendingApiRequests >= maxPendingRequests) return serverBusy();
    const decision = rateLimiter?.take(clientNetwork(client), now());
    if (decision && !decision.allowed) return tooManyRequests(decision.retryAfterSeconds);
    return undefined;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      sendApiError(res, invalidUrl());
      return;
    }
    if (url.pathname === restPrefix || url.pathname.startsWith(`${restPrefix}/`)) {
      // Answers of the API may carry personal data: never kept by a cache.
      res.setHeader('Cache-Control', 'no-store');
      const client = clientAddress(req, trustProxy);
      const refused = refusal(req, client);
      if (refused) {
        sendApiError(res, refused, apiCorsHeaders);
        return;
      }
      pendingApiRequests += 1;
      res.once('close', () => (pendingApiRequests -= 1));
      await handleRest(req, res, url, client);
    } else {
      await serveStatic(req, res, url.pathname);
    }
  };

  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      // The path only: query strings may hold personal data.
      logError(`Unexpected error answering ${req.method} ${req.url?.split('?')[0]}`, error);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendApiError(res, internalError());
    });
  };
}

/**
 * The address the rate limit counts. Behind a reverse proxy every request comes
 * from the proxy; it appends the client's address to X-Forwarded-For, so the
 * last entry is the one a client cannot forge.
 */
function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = [req.headers['x-forwarded-for'] ?? []].flat().join(',').split(',');
    const last = forwarded.at(-1)?.trim();
    if (last) return last;
  }
  return req.socket.remoteAddress ?? 'unknown';
}

function logToStderr(message: string, error: unknown) {
  console.error(message, error);
}
