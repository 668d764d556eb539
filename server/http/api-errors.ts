import type { DatabaseError } from '../../supabase/functions/_shared/db/database.ts';

/**
 * Every error the server answers, in one place: each refusal is a named
 * constructor, so the status, code, message, hint and headers of an answer
 * are read here rather than searched for across the handlers. Only this file
 * may write `new ApiError(` (a lint rule says so).
 *
 * The API's errors have PostgREST's shape, so that a client written for hosted
 * Supabase (postgrest-js) reads ours the same way: `{code, message, details,
 * hint}`, with PostgreSQL's SQLSTATE or PostgREST's PGRSTxxx code. The built
 * site's errors are plain text, as any static file server's.
 */

export class ApiError extends Error {
  readonly body: { code: string; message: string; details: string | null; hint: string | null };
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

// ---------------------------------------------------------------------------
// Requests Node's parser refuses, answered before any handler runs.

/** The request line or a header is not HTTP. */
export function malformedRequest(): ApiError {
  return new ApiError(400, 'PGRST100', 'The request is not valid HTTP');
}

/** The headers pass the server's limit (16 KB). */
export function headersTooLarge(): ApiError {
  return new ApiError(431, 'PGRST100', 'The request headers are too large');
}

/** The client did not send its whole request in time. */
export function requestTimeout(): ApiError {
  return new ApiError(408, 'PGRST000', 'The request was not received in time');
}

/**
 * An API request's body did not arrive within `timeoutMs` of its headers
 * (tighter than the site's limit: a booking is a few hundred bytes). The
 * connection closes, since the rest of the body is never read.
 */
export function bodyTimeout(timeoutMs: number): ApiError {
  return new ApiError(408, 'PGRST000', 'The request was not received in time', {
    details: `The request body must arrive within ${timeoutMs / 1000} seconds of its headers.`,
    headers: { Connection: 'close' },
  });
}

/** The request target is not a URL (`GET //`). */
export function invalidUrl(): ApiError {
  return new ApiError(400, 'PGRST100', 'The request URL is not valid');
}

// ---------------------------------------------------------------------------
// The built site.

/** An answer of the built site: plain text, never the page. */
export interface SiteError {
  status: number;
  text: string;
  headers: Record<string, string>;
}

/** The path is not a file of the built site. */
export function fileNotFound(): SiteError {
  return { status: 404, text: 'Not Found', headers: {} };
}

/** The site is read only. */
export function siteMethodNotAllowed(): SiteError {
  return { status: 405, text: 'Method Not Allowed', headers: { Allow: 'GET, HEAD' } };
}

// ---------------------------------------------------------------------------
// Protections against floods.

/**
 * The one answer of every limit on requests, the server's and the database's
 * alike (the migration 20261201000100_limits.sql raises the same code,
 * message and hint), so that a refusal never says which limit. The hint claims
 * nothing about earlier requests: the one refused may be someone else's doing.
 */
export const tooManyRequestsAnswer = {
  code: 'PT429',
  message: 'Too many booking requests',
  hint: 'Please try again later, or call or e-mail the practice.',
} as const;

/**
 * With `close`, the answer when one client network already has as many API
 * requests in progress as it may (a client holding many connections open must
 * not hold the server's): its places free within seconds, and closing this
 * connection frees one of the server's.
 */
export function tooManyRequests(retryAfterSeconds: number, close = false): ApiError {
  const { code, message, hint } = tooManyRequestsAnswer;
  return new ApiError(429, code, message, {
    hint,
    headers: {
      'Retry-After': String(retryAfterSeconds),
      ...(close ? { Connection: 'close' } : {}),
    },
  });
}

/** More API requests at once than the server handles; refused rather than queued. */
export function serverBusy(): ApiError {
  return new ApiError(503, 'PT503', 'The server is busy', {
    hint: 'Please try again in a moment.',
    // Closing frees the socket; the client reconnects when it retries.
    headers: { 'Retry-After': '2', Connection: 'close' },
  });
}

/** The body passes `limitBytes`; the connection closes so the rest need not be read. */
export function payloadTooLarge(limitBytes: number): ApiError {
  return new ApiError(413, '54000', 'Payload too large', {
    details: `The request body exceeds ${limitBytes} bytes.`,
    hint: 'Send one booking request at a time.',
    headers: { Connection: 'close' },
  });
}

// ---------------------------------------------------------------------------
// The request as a whole: method, path, schema, keys, media types.

/** `allow` lists the methods the resource has, for the `Allow` header. */
export function unsupportedMethod(method: string, allow: string): ApiError {
  return new ApiError(405, 'PGRST117', `Unsupported HTTP method: ${method}`, {
    headers: { Allow: allow },
  });
}

/** `/rest/v1` itself, or a path deeper than one table. */
export function invalidPath(): ApiError {
  return new ApiError(404, 'PGRST125', 'Invalid path specified in request URL');
}

export function tableNotFound(table: string): ApiError {
  return new ApiError(
    404,
    'PGRST205',
    `Could not find the table 'public.${table}' in the schema cache`,
  );
}

/** Only the `public` schema is exposed, as on a default Supabase project. */
export function invalidSchema(profile: string | string[]): ApiError {
  return new ApiError(406, 'PGRST106', `Invalid schema: ${profile}`, {
    hint: 'Only the following schemas are exposed: public',
  });
}

export function noApiKey(): ApiError {
  return new ApiError(401, 'PGRST302', 'No API key found in request', {
    hint: 'No `apikey` request header was found.',
    headers: { 'WWW-Authenticate': 'Bearer' },
  });
}

/** The `apikey` header, or with `bearer` the `Authorization: Bearer` token, is not the anon key. */
export function invalidApiKey(bearer = false): ApiError {
  const hint = bearer
    ? 'The `Authorization: Bearer` token must be the anon key.'
    : 'Double check your Supabase `anon` or `service_role` API key.';
  return new ApiError(401, 'PGRST301', 'Invalid API key', {
    hint,
    headers: {
      'WWW-Authenticate': 'Bearer error="invalid_token", error_description="Invalid API key"',
    },
  });
}

/**
 * What PostgreSQL says when a role lacks a privilege (here: anon reading,
 * updating or deleting). PostgREST answers 401 to the anonymous role.
 */
export function permissionDenied(): ApiError {
  return new ApiError(401, '42501', 'permission denied for table bookings', {
    headers: { 'WWW-Authenticate': 'Bearer' },
  });
}

// ---------------------------------------------------------------------------
// The functions under /rest/v1/rpc (routes/rpc.ts).

export function functionNotFound(name: string): ApiError {
  return new ApiError(
    404,
    'PGRST202',
    `Could not find the function public.${name} in the schema cache`,
  );
}

export function contentTypeNotAcceptable(contentType: string | undefined): ApiError {
  return new ApiError(415, 'PGRST102', `Content-Type not acceptable: ${contentType ?? '(none)'}`, {
    hint: 'Send the booking as application/json.',
  });
}

// ---------------------------------------------------------------------------
// The body of an insert.

/** The body is not UTF-8 JSON, or not an object. */
export function invalidJson(): ApiError {
  return invalidBody('Empty or invalid json');
}

/** The body holds something other than booking objects. */
export function notBookingObjects(isArray: boolean): ApiError {
  return invalidBody(
    isArray ? 'All object keys must match' : 'Empty or invalid json',
    'Send a JSON object, or an array of JSON objects, with the columns of a booking.',
  );
}

/** Without a `columns` parameter, PostgREST requires every object to have the same keys. */
export function objectKeysDiffer(): ApiError {
  return invalidBody('All object keys must match');
}

export function notAString(column: string, nullable: boolean): ApiError {
  return invalidBody(
    `Invalid value for column '${column}': expected a string${nullable ? ' or null' : ''}`,
  );
}

/** PostgreSQL text cannot hold NUL, and a lone surrogate has no UTF-8 form. */
export function unstorableText(column: string): ApiError {
  return invalidBody(
    `Invalid value for column '${column}': the text contains a NUL character or a lone surrogate`,
  );
}

function invalidBody(message: string, hint?: string): ApiError {
  return new ApiError(400, 'PGRST102', message, { hint: hint ?? null });
}

/** postgrest-js sends `columns="id","full_name",…` with an array insert. */
export function invalidColumnsParameter(parameter: string): ApiError {
  return new ApiError(400, 'PGRST100', `failed to parse columns parameter (${parameter})`, {
    details: 'Expected column names separated by commas, each optionally in double quotes.',
  });
}

export function columnNotFound(column: string): ApiError {
  return new ApiError(
    400,
    'PGRST204',
    `Could not find the '${column}' column of 'bookings' in the schema cache`,
  );
}

/** `shown` is the id as sent: the string itself, or the JSON of another value. */
export function invalidUuid(shown: string): ApiError {
  return new ApiError(400, '22P02', `invalid input syntax for type uuid: "${shown}"`);
}

/** An anonymous caller sent several bookings in one request (the database refuses it too). */
export function oneBookingAtATime(): ApiError {
  return new ApiError(400, 'PT400', 'Send one booking request at a time', {
    hint: 'Send each booking as a JSON object of its own.',
  });
}

/**
 * A required field is missing, as PostgreSQL names it for `column`, the first
 * one refused; `details` gives the form's message for every field refused.
 */
export function notNullViolation(column: string, details: string): ApiError {
  return new ApiError(
    400,
    '23502',
    `null value in column "${column}" of relation "bookings" violates not-null constraint`,
    { details },
  );
}

/** A field breaks a rule of the form; as `notNullViolation`, for the table's check constraint. */
export function checkViolation(column: string, details: string): ApiError {
  return new ApiError(
    400,
    '23514',
    `new row for relation "bookings" violates check constraint "bookings_${column}_check"`,
    { details },
  );
}

// ---------------------------------------------------------------------------
// The database, and what nobody expected.

export function databaseUnavailable(): ApiError {
  return new ApiError(503, 'PGRST000', 'Database connection error. Retrying the connection.', {
    headers: { 'Retry-After': '5' },
  });
}

export function internalError(): ApiError {
  return new ApiError(500, 'PGRSTX00', 'Internal server error');
}

/**
 * The statuses the database raises itself, as PostgREST does with a `PTnnn`
 * error code (statusForSqlState passes them through), on the server and on
 * hosted Supabase alike; each with what it means and the migration that
 * raises it. api-errors-sql.test.ts holds this list to the migrations.
 */
export const statusesRaisedInSql = {
  PT400: 'more than one booking in one request (20261201000100_limits.sql)',
  PT403: 'an answer link this database did not sign (20261201000200_notifications.sql)',
  PT404: 'the request of an answer link is no longer stored (20261201000200_notifications.sql)',
  PT410: 'an answer link past its expiry (20261201000200_notifications.sql)',
  PT428: 'a booking during a flood without a valid proof of work (20261201000100_limits.sql)',
  PT429: 'too many bookings from one network or address in an hour (20261201000100_limits.sql)',
} as const;

/**
 * PostgREST's table from SQLSTATE to HTTP status (docs.postgrest.org, "Errors").
 * A custom SQLSTATE `PTxyz` raised by the database means HTTP status xyz.
 */
export function statusForSqlState(code: string): number {
  const custom = /^PT([1-5]\d\d)$/.exec(code);
  if (custom) return Number(custom[1]);
  const statusOf = (codes: Record<number, string>, key: string) =>
    Object.entries(codes).find(([, listed]) => listed.split(' ').includes(key))?.[0];
  const status = statusOf(statusBySqlState, code) ?? statusOf(statusBySqlClass, code.slice(0, 2));
  return status === undefined ? 400 : Number(status);
}

/** Statuses by SQLSTATE, before those by class. */
const statusBySqlState: Record<number, string> = {
  409: '23503 23505',
  405: '25006',
  500: '53400 42P17',
  503: '57P01',
  400: 'P0001',
  404: '42883 42P01',
  // Every caller of this API is anonymous; PostgREST answers 403 to the others.
  401: '42501',
};

/** Statuses by class, the SQLSTATE's first two characters; any other: 400. */
const statusBySqlClass: Record<number, string> = {
  503: '08 53',
  403: '0L 0P 28',
  500: '09 25 2D 38 39 3B 40 54 55 57 58 F0 HV P0 XX',
};

/** What the database refused, passed on as PostgREST passes it: its code, message, detail and hint. */
export function fromDatabaseError(error: DatabaseError): ApiError {
  const status = statusForSqlState(error.code);
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
