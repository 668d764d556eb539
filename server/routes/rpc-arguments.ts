import type { IncomingMessage } from 'node:http';
import { invalidJson } from '../http/api-errors.ts';
import { readBody } from '../http/read-body.ts';

/**
 * The arguments of an RPC called with POST, as PostgREST reads them: a JSON
 * object whose keys name the function's arguments; an empty body is no
 * argument. Anything else is refused as PostgREST refuses it (400 PGRST102).
 */
export async function readRpcArguments(req: IncomingMessage): Promise<Record<string, unknown>> {
  const body = (await readBody(req, 16 * 1024)).toString('utf8');
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
