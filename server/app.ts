import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import {
  ApiError,
  internalError,
  invalidUrl,
  serverBusy,
  tooManyRequests,
} from './http/api-errors.ts';
import { apiCorsHeaders } from './http/cors.ts';
import { readBody } from './http/read-body.ts';
import { sendApiError } from './http/send-json.ts';
import { resolveClientAddress } from './limits/client-address.ts';
import { clientNetwork } from './limits/client-network.ts';
import { createRateLimiter } from './limits/rate-limiter.ts';
import { createRequestsInProgress } from './limits/requests-in-progress.ts';
import { mayBeProxy, trustedProxies } from './limits/trusted-proxies.ts';
import type { LimitsConfig } from './limits/limits-config.ts';
import { maxBodyBytes } from './routes/bookings.ts';
import { createRestHandler, restPrefix, type RestDeps } from './routes/rest.ts';
import { createStaticSite } from './routes/static-site.ts';

/** The API's dependencies (rest.ts), and the site's. */
export interface AppDeps extends Omit<RestDeps, 'logError'> {
  /** The built site. */
  distDir: string;
  logError?: (message: string, error: unknown) => void;
  /** Warnings about the set-up, each said once; console.warn when unset. */
  logWarning?: (message: string) => void;
  /** The API's protections against floods; none when unset. */
  limits?: ApiLimits;
  /** The clock of the rate limit, for tests. */
  now?: () => number;
}

/** The server's own protections against floods; the booking limits are the database's. */
export type ApiLimits = Omit<LimitsConfig, 'bookingLimits'>;

/**
 * API requests one client network may have in progress at once, bodies still
 * arriving included (with a rate limit). A visitor sends one booking at a time;
 * a few spare allow for a retry and for several people behind one address.
 */
export const maxRequestsAtOncePerClient = 4;

/**
 * The time an API request's body has to arrive after its headers. A booking
 * is a few hundred bytes, one packet even from a slow phone; the built site's
 * files keep the server's general limits (http-server.ts).
 */
export const apiBodyTimeoutMs = 5_000;

/** The built site, and the API under /rest/v1 with its protections against floods. */
export function createApp(deps: AppDeps): RequestListener {
  const logError =
    deps.logError ?? ((message: string, error: unknown) => console.error(message, error));
  const logWarning = deps.logWarning ?? ((message: string) => console.warn(message));
  const handleRest = createRestHandler({ ...deps, logError });
  const serveStatic = createStaticSite(deps.distDir);
  const now = deps.now ?? Date.now;
  const {
    rateLimitPerMinute = 0,
    trustProxy = [],
    maxPendingRequests = Infinity,
  } = deps.limits ?? {};
  const proxies = trustedProxies(trustProxy);
  const rateLimiter =
    rateLimitPerMinute > 0 ? createRateLimiter({ perMinute: rateLimitPerMinute }) : undefined;
  const inProgress =
    rateLimitPerMinute > 0 ? createRequestsInProgress(maxRequestsAtOncePerClient) : undefined;
  let pendingApiRequests = 0;
  let warnedOfUntrustedProxy = false;

  /**
   * A proxy that is not trusted makes every visitor one client, the proxy's
   * address, sharing one set of limits: worth a warning, once, at the first
   * request it passes on (a page, usually). A proxy connects from this machine
   * or a private network (a container's host, a load balancer); a visitor
   * from there writing X-Forwarded-For is rare.
   */
  const noticeUntrustedProxy = (req: IncomingMessage) => {
    const peer = req.socket.remoteAddress;
    if (warnedOfUntrustedProxy || req.headers['x-forwarded-for'] === undefined) return;
    if (!mayBeProxy(peer) || proxies.has(peer!)) return;
    warnedOfUntrustedProxy = true;
    logWarning(
      `Warning: requests from ${peer} carry X-Forwarded-For, so a reverse proxy seems to be in front, ` +
        `but TRUST_PROXY ${proxies.none ? 'is unset' : 'does not list it'}: every visitor counts as the proxy's address and shares one set of limits. ` +
        'Set TRUST_PROXY to loopback for a proxy on the same machine (Caddy, deploy/Caddyfile), or to its address or range (docs/configuration.md).',
    );
  };

  /**
   * Admits an API request whose headers have arrived, or says why not: the
   * client network's own limits, checked before its body is read.
   */
  const admitClient = (res: ServerResponse, network: string): ApiError | undefined => {
    if (inProgress && !inProgress.tryStart(network)) {
      // By then every request in progress has its whole body or its 408.
      return tooManyRequests(Math.ceil(apiBodyTimeoutMs / 1000), true);
    }
    res.once('close', () => inProgress?.finish(network));
    const decision = rateLimiter?.take(network, now());
    if (decision && !decision.allowed) return tooManyRequests(decision.retryAfterSeconds);
    return undefined;
  };

  const handleApi = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    // Answers of the API may carry personal data: never kept by a cache.
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const client = resolveClientAddress(
      req.socket.remoteAddress,
      req.headers['x-forwarded-for'],
      proxies,
    );
    // Preflights are free: each one precedes the request that counts.
    if (req.method === 'OPTIONS') {
      await handleRest(req, res, url, client);
      return;
    }
    const refused = admitClient(res, clientNetwork(client));
    if (refused) {
      sendApiError(res, refused, apiCorsHeaders);
      return;
    }
    // The whole body first: a request counts among those the server handles
    // only once it is here, so slow senders cannot fill every place.
    try {
      await readBody(req, maxBodyBytes, { timeoutMs: apiBodyTimeoutMs });
    } catch (error) {
      if (error instanceof ApiError) sendApiError(res, error, apiCorsHeaders);
      else res.destroy(); // The client left: nobody to answer.
      return;
    }
    if (pendingApiRequests >= maxPendingRequests) {
      sendApiError(res, serverBusy(), apiCorsHeaders);
      return;
    }
    pendingApiRequests += 1;
    res.once('close', () => (pendingApiRequests -= 1));
    await handleRest(req, res, url, client);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    noticeUntrustedProxy(req);
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      sendApiError(res, invalidUrl());
      return;
    }
    if (url.pathname === restPrefix || url.pathname.startsWith(`${restPrefix}/`)) {
      await handleApi(req, res, url);
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
