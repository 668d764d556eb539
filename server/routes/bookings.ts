import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  databaseRequestHeaders,
  type BookingsRepository,
} from '../../supabase/functions/_shared/db/bookings-repository.ts';
import { readBody } from '../http/read-body.ts';
import {
  contentTypeNotAcceptable,
  mediaTypeNotAvailable,
  notSingleObject,
  permissionDenied,
  type ApiRole,
} from '../http/api-errors.ts';
import { sendJson } from '../http/send-json.ts';
import { parseBookingPayload } from './booking-payload.ts';
import { parseBookingQuery } from './booking-query.ts';

/** `/rest/v1/bookings`: anonymous inserts; reads with the service key. */

/** A booking request is well under 1 KB; a few of them fit many times over. */
export const maxBodyBytes = 16 * 1024;

export interface BookingsRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  role: ApiRole;
  /**
   * The client's address as the server trusts it (TRUST_PROXY), for the
   * database's limits per network; undefined when unknown (one shared bucket).
   */
  clientAddress: string | undefined;
  /** CORS headers for every answer. */
  headers: Record<string, string>;
}

export async function insertBookings(
  { req, res, url, role, clientAddress, headers }: BookingsRequest,
  bookings: BookingsRepository,
) {
  const contentType = req.headers['content-type'];
  if (!isJson(contentType)) throw contentTypeNotAcceptable(contentType);
  const body = await readBody(req, maxBodyBytes);
  const rows = parseBookingPayload(body, {
    role,
    columns: url.searchParams.get('columns'),
    newId: randomUUID,
  });

  // Returning the row, or merging or skipping duplicates, all need to read the
  // table, which anonymous callers may not do: refuse before writing anything.
  const prefer = parsePrefer(req.headers.prefer);
  const wantsRows =
    prefer.get('return') === 'representation' || prefer.get('return') === 'headers-only';
  if (wantsRows || prefer.has('resolution')) throw permissionDenied(role);

  // The service key inserts as itself (several rows at once, no limits per visitor).
  if (role === 'service_role') await bookings.insertAsService(rows);
  else {
    const proof = req.headers[databaseRequestHeaders.proof];
    await bookings.insertAsAnon(rows, {
      clientAddress,
      proof: typeof proof === 'string' ? proof : undefined,
    });
  }
  res.writeHead(201, { ...headers, 'Content-Range': '*/*', 'Content-Length': '0' });
  res.end();
}

export async function readBookings(
  { req, res, url, role, headers }: BookingsRequest,
  bookings: BookingsRepository,
) {
  if (role !== 'service_role') throw permissionDenied(role);
  const single = wantsSingleObject(req.headers.accept);
  const prefer = parsePrefer(req.headers.prefer);
  const count = prefer.get('count');
  const query = parseBookingQuery(url.searchParams, count !== undefined);
  const { rows, total } = await bookings.selectForService(query.selection);

  const body = rows.map((row) =>
    Object.fromEntries(query.output.map(({ key, column }) => [key, row[column] ?? null])),
  );
  const range = rows.length === 0 ? '*' : `${query.offset}-${query.offset + rows.length - 1}`;
  const answerHeaders: Record<string, string> = {
    ...headers,
    'Content-Range': `${range}/${total ?? '*'}`,
  };
  if (count !== undefined) answerHeaders['Preference-Applied'] = `count=${count}`;

  if (single) {
    if (body.length !== 1) throw notSingleObject(body.length);
    sendJson(res, 200, body[0], answerHeaders, 'application/vnd.pgrst.object+json; charset=utf-8');
    return;
  }
  sendJson(res, 200, body, answerHeaders);
}

/** The methods of `/rest/v1/bookings`, for `Allow` headers. */
export const allowedMethods = 'OPTIONS, GET, HEAD, POST';

function isJson(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json';
}

/** `application/vnd.pgrst.object+json` (postgrest-js `.single()`) asks for one object. */
function wantsSingleObject(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  const types = accept.split(',').map((part) => part.split(';')[0]?.trim().toLowerCase() ?? '');
  for (const type of types) {
    if (type === 'application/vnd.pgrst.object+json') return true;
    if (
      ['application/json', 'application/*', '*/*', 'application/vnd.pgrst.array+json'].includes(
        type,
      )
    ) {
      return false;
    }
  }
  throw mediaTypeNotAvailable(accept);
}

/** `Prefer: return=minimal, count=exact` (the header may also be repeated). */
function parsePrefer(header: string | string[] | undefined): Map<string, string> {
  const preferences = new Map<string, string>();
  for (const part of [header ?? ''].flat().join(',').split(',')) {
    const [name, value = ''] = part.split('=').map((text) => text.trim().toLowerCase());
    if (name) preferences.set(name, value);
  }
  return preferences;
}
