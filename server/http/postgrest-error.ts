import type { ServerResponse } from 'node:http';
import type { DatabaseError } from '../db/database.ts';

/**
 * Errors in PostgREST's shape, so that a client written for hosted Supabase
 * (postgrest-js) reads ours the same way: `{code, message, details, hint}`,
 * with PostgreSQL's SQLSTATE or PostgREST's PGRSTxxx code.
 */

export interface PostgrestErrorBody {
  code: string;
  message: string;
  details: string | null;
  hint: string | null;
}

export type ApiRole = 'anon' | 'service_role';

export class ApiError extends Error {
  readonly body: PostgrestErrorBody;
  readonly headers: Record<string, string>;

  constructor(
    readonly status: number,
    code: string,
    message: string,
    options: {
      details?: string | null;
      hint?: string | null;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.body = { code, message, details: options.details ?? null, hint: options.hint ?? null };
    this.headers = options.headers ?? {};
  }
}

/**
 * What PostgreSQL says when a role lacks a privilege (here: anon reading,
 * updating or deleting). PostgREST answers 401 to the anonymous role, 403 otherwise.
 */
export function permissionDenied(role: ApiRole): ApiError {
  return new ApiError(
    role === 'anon' ? 401 : 403,
    '42501',
    'permission denied for table bookings',
    role === 'anon' ? { headers: { 'WWW-Authenticate': 'Bearer' } } : {},
  );
}

/**
 * The one answer of every limit on requests, the server's and the database's
 * alike (the migration 20261123120000_booking_visitor_limits.sql raises the
 * same code, message and hint), so that a refusal never says which limit.
 */
export const tooManyRequestsAnswer = {
  code: 'PT429',
  message: 'Too many booking requests',
  hint: 'Please try again later. If you have already sent a request, we have it and will reply within 24 hours.',
} as const;

export function tooManyRequests(retryAfterSeconds: number): ApiError {
  const { code, message, hint } = tooManyRequestsAnswer;
  return new ApiError(429, code, message, {
    hint,
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
}

/** An anonymous caller sent several bookings in one request (the database refuses it too). */
export function oneBookingAtATime(): ApiError {
  return new ApiError(400, 'PT400', 'Send one booking request at a time', {
    hint: 'Send each booking as a JSON object of its own.',
  });
}

export function databaseUnavailable(): ApiError {
  return new ApiError(503, 'PGRST000', 'Database connection error. Retrying the connection.', {
    headers: { 'Retry-After': '5' },
  });
}

export function internalError(): ApiError {
  return new ApiError(500, 'PGRSTX00', 'Internal server error');
}

/**
 * PostgREST's table from SQLSTATE to HTTP status (docs.postgrest.org, "Errors").
 * A custom SQLSTATE `PTxyz` raised by the database means HTTP status xyz.
 */
export function statusForSqlState(code: string, role: ApiRole): number {
  const custom = /^PT([1-5]\d\d)$/.exec(code);
  if (custom) return Number(custom[1]);
  switch (code) {
    case '23503':
    case '23505':
      return 409;
    case '25006':
      return 405;
    case '53400':
      return 500;
    case '57P01':
      return 503;
    case 'P0001':
      return 400;
    case '42883':
    case '42P01':
      return 404;
    case '42P17':
      return 500;
    case '42501':
      return role === 'anon' ? 401 : 403;
  }
  switch (code.slice(0, 2)) {
    case '08':
    case '53':
      return 503;
    case '0L':
    case '0P':
    case '28':
      return 403;
    case '09':
    case '25':
    case '2D':
    case '38':
    case '39':
    case '3B':
    case '40':
    case '54':
    case '55':
    case '57':
    case '58':
    case 'F0':
    case 'HV':
    case 'P0':
    case 'XX':
      return 500;
  }
  return 400;
}

export function fromDatabaseError(error: DatabaseError, role: ApiRole): ApiError {
  const status = statusForSqlState(error.code, role);
  const headers: Record<string, string> = {};
  if (status === 401) headers['WWW-Authenticate'] = 'Bearer';
  // The database's limits count per minute and per hour; a minute is the least to wait.
  if (status === 429) headers['Retry-After'] = '60';
  return new ApiError(status, error.code, error.message, {
    details: error.detail ?? null,
    hint: error.hint ?? null,
    headers,
  });
}

export function sendApiError(
  res: ServerResponse,
  error: ApiError,
  headers: Record<string, string> = {},
) {
  sendJson(res, error.status, error.body, { ...headers, ...error.headers });
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  contentType = 'application/json; charset=utf-8',
) {
  const payload = Buffer.from(JSON.stringify(body));
  res.writeHead(status, {
    ...headers,
    'Content-Type': contentType,
    'Content-Length': String(payload.length),
  });
  res.end(res.req.method === 'HEAD' ? undefined : payload);
}
