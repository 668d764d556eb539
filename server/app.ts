import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { BookingsRepository } from './db/bookings-repository.ts';
import type { ApiKeys } from './http/api-keys.ts';
import { createRestHandler, restPrefix } from './routes/rest.ts';
import { createStaticSite } from './routes/static-site.ts';

export interface AppDeps {
  bookings: BookingsRepository;
  keys: ApiKeys;
  /** The built site. */
  distDir: string;
  logError?: (message: string, error: unknown) => void;
}

/** The whole server as a request listener: the booking API under /rest/v1, the built site elsewhere. */
export function createApp(deps: AppDeps): RequestListener {
  const logError = deps.logError ?? logToStderr;
  const handleRest = createRestHandler({ bookings: deps.bookings, keys: deps.keys, logError });
  const serveStatic = createStaticSite(deps.distDir);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Bad Request');
      return;
    }
    if (url.pathname === restPrefix || url.pathname.startsWith(`${restPrefix}/`)) {
      await handleRest(req, res, url);
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
      res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Internal Server Error');
    });
  };
}

function logToStderr(message: string, error: unknown) {
  console.error(message, error);
}
