import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  databaseRequestHeaders,
  type BookingsRepository,
} from '../../supabase/functions/_shared/db/bookings-repository.ts';
import { apiCorsHeaders } from '../http/cors.ts';
import { readBody } from '../http/read-body.ts';
import { contentTypeNotAcceptable, permissionDenied } from '../http/api-errors.ts';
import { parseBookingPayload } from './booking-payload.ts';

/**
 * `/rest/v1/bookings`: the anonymous inserts of the booking form. Nobody reads
 * or changes bookings over HTTP here: the practice does it by SQL (`npx hijama`).
 */

/** A booking request is well under 1 KB; a few of them fit many times over. */
export const maxBodyBytes = 16 * 1024;

/**
 * `clientAddress` is the client's address as the server trusts it
 * (TRUST_PROXY), for the database's limits per network; undefined when
 * unknown (one shared bucket).
 */
export async function insertBookings(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  clientAddress: string | undefined,
  bookings: BookingsRepository,
) {
  const contentType = req.headers['content-type'];
  if (contentType?.split(';')[0]?.trim().toLowerCase() !== 'application/json') {
    throw contentTypeNotAcceptable(contentType);
  }
  const body = await readBody(req, maxBodyBytes);
  const rows = parseBookingPayload(body, {
    columns: url.searchParams.get('columns'),
    newId: randomUUID,
  });

  // Returning the row, or merging or skipping duplicates, all need to read the
  // table, which anonymous callers may not do: refuse before writing anything.
  const prefer = parsePrefer(req.headers.prefer);
  const wantsRows =
    prefer.get('return') === 'representation' || prefer.get('return') === 'headers-only';
  if (wantsRows || prefer.has('resolution')) throw permissionDenied();

  const proof = req.headers[databaseRequestHeaders.proof];
  await bookings.insertAsAnon(rows, {
    clientAddress,
    proof: typeof proof === 'string' ? proof : undefined,
  });
  res.writeHead(201, { ...apiCorsHeaders, 'Content-Range': '*/*', 'Content-Length': '0' });
  res.end();
}

/** The methods of `/rest/v1/bookings`, for `Allow` headers. */
export const allowedMethods = 'OPTIONS, GET, HEAD, POST';

/** `Prefer: return=minimal, count=exact` (the header may also be repeated). */
function parsePrefer(header: string | string[] | undefined): Map<string, string> {
  const preferences = new Map<string, string>();
  for (const part of [header ?? ''].flat().join(',').split(',')) {
    const [name, value = ''] = part.split('=').map((text) => text.trim().toLowerCase());
    if (name) preferences.set(name, value);
  }
  return preferences;
}
