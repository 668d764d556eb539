import type { ServerResponse } from 'node:http';
import type { ApiError } from './api-errors.ts';

/** Answers with a JSON body (none to HEAD), which a browser must never read as anything else. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const payload = Buffer.from(JSON.stringify(body));
  res.writeHead(status, {
    ...headers,
    'X-Content-Type-Options': 'nosniff',
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(payload.length),
  });
  res.end(res.req.method === 'HEAD' ? undefined : payload);
}

/** Answers an error of the catalogue; its own headers win over `headers`. */
export function sendApiError(
  res: ServerResponse,
  error: ApiError,
  headers: Record<string, string> = {},
) {
  sendJson(res, error.status, error.body, { ...headers, ...error.headers });
}
