import type { IncomingMessage, ServerResponse } from 'node:http';
import { invalidJson, unsupportedMethod } from '../http/api-errors.ts';
import { readBody } from '../http/read-body.ts';
import { maxBodyBytes } from './bookings.ts';

/** The methods PostgREST serves a function by. */
export const rpcMethods = 'GET, HEAD, POST';

/** A call of one of the functions under `/rest/v1/rpc/`. */
export interface RpcRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** CORS headers for every answer. */
  headers: Record<string, string>;
}

/**
 * The arguments of an RPC call, as PostgREST reads them: for POST a JSON
 * object whose keys name the function's arguments (an empty body is no
 * argument; anything else is refused, 400 PGRST102), for GET and HEAD the
 * query string. Other methods: 405.
 */
export async function readRpcArguments(
  req: IncomingMessage,
  url: URL,
): Promise<Record<string, unknown>> {
  const method = req.method ?? 'GET';
  if (!rpcMethods.split(', ').includes(method)) throw unsupportedMethod(method, rpcMethods);
  if (method !== 'POST') return Object.fromEntries(url.searchParams.entries());
  const body = (await readBody(req, maxBodyBytes)).toString('utf8');
  if (body.trim() === '') return {};
  let args: unknown;
  try {
    args = JSON.parse(body);
  } catch {
    throw invalidJson();
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) throw invalidJson();
  return args as Record<string, unknown>;
}
