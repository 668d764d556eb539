import { Agent } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { developmentAnonKey } from '../supabase/functions/_shared/core/api-defaults.ts';
import { useTestApp } from './testing/test-database.ts';
import { bookingWithId } from './testing/booking-samples.ts';
import { anonHeaders, httpExchange, testEngines, type HttpAnswer } from './testing/helpers.ts';

/**
 * Thousands of generated requests against the real server: random JSON, wrong
 * types, huge strings, unknown columns, arrays, nested objects, control
 * characters, SQL-like text, invalid UTF-8, missing or wrong headers. Never a
 * 5xx, every error in PostgREST's JSON shape, and exactly the valid bookings stored.
 */

const requestsPerEngine = 10_000;
/** Requests in flight at once, as several browsers would send them. */
const concurrency = 8;

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
  /** The one class of request that must be stored: a clean booking with the right headers. */
  storesEmail: string | undefined;
}

let sequence = 0;
const uniqueEmail = () => `fuzz.${Date.now()}.${(sequence += 1)}@example.com`;

const validRow = () => bookingWithId({ full_name: 'Fuzz Client', email: uniqueEmail() });

const nastyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    "'; drop table bookings; --",
    '" or 1=1 --',
    '\u0000',
    'a\u0000b',
    '\ud800',
    '<script>alert(1)</script>',
    '$1',
    '%00',
    '\\x00',
    '{"$gt": ""}',
  ),
  fc.string({ minLength: 20_000, maxLength: 40_000 }),
);

/** A value that is never a valid field: wrong type, or a string breaking the rules. */
const invalidValue = fc.oneof(
  fc.integer(),
  // NaN and the infinities would be sent as JSON null, which is not a wrong type.
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
  fc.constant(''),
  fc.constant('   '),
);

const json = { 'content-type': 'application/json' };

const wrongHeaders = fc.oneof(
  fc.constant({ ...json }),
  fc.constant({ ...json, apikey: 'wrong-key' }),
  fc.constant({ ...json, apikey: developmentAnonKey, authorization: 'Bearer wrong' }),
  fc.constant({ ...json, apikey: developmentAnonKey, authorization: 'Basic abc' }),
  fc.constant({ ...anonHeaders }),
  fc.constant({ ...anonHeaders, 'content-type': 'text/plain' }),
  fc.constant({ ...anonHeaders, 'content-type': 'application/x-www-form-urlencoded' }),
  fc
    .string({ maxLength: 30 })
    .map((type) => ({ ...anonHeaders, 'content-type': type.replace(/[^\x20-\x7e]/g, '') })),
  fc.constant({ ...anonHeaders, ...json, prefer: 'return=representation' }),
  fc.constant({ ...anonHeaders, ...json, 'content-profile': 'private' }),
);

const bodies = {
  valid: fc.constant(null).map(() => validRow()),
  unknownColumn: fc
    .tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue())
    .filter(
      ([column]) => !['id', 'full_name', 'phone', 'email', 'instagram', 'website'].includes(column),
    )
    .map(([column, value]) => ({ ...validRow(), [column]: value })),
  wrongField: fc
    .tuple(fc.constantFrom('id', 'full_name', 'phone', 'email', 'instagram'), invalidValue)
    // An empty Instagram handle is stored as none, and a missing id is generated: both valid.
    .filter(
      ([field, value]) =>
        !(
          field === 'instagram' &&
          (value === null || (typeof value === 'string' && !value.trim()))
        ),
    )
    .filter(([field, value]) => !(field === 'id' && value === null))
    .map(([field, value]) => ({ ...validRow(), [field]: value })),
  nastyField: fc
    .tuple(fc.constantFrom('full_name', 'phone', 'email'), nastyString)
    .map(([field, value]) => ({
      ...validRow(),
      email: `${field === 'email' ? value : 'bad email'}`,
      [field]: value,
    })),
  missingField: fc
    .constantFrom('full_name', 'phone', 'email')
    .map((field) =>
      Object.fromEntries(Object.entries(validRow()).filter(([key]) => key !== field)),
    ),
  randomJson: fc.jsonValue({ maxDepth: 4 }),
  nested: fc
    .jsonValue({ maxDepth: 3 })
    .map((value) => ({ ...validRow(), full_name: { nested: value } })),
  array: fc.array(
    fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      // A row that breaks a rule, for arrays that must be refused as a whole.
      fc.constant(null).map(() => ({ ...validRow(), phone: '123' })),
    ),
    { maxLength: 4 },
  ),
};

const encoded = (value: unknown) => Buffer.from(JSON.stringify(value));

const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  // The one kind that must be stored.
  {
    weight: 3,
    arbitrary: bodies.valid.map((row) => post(row, { ...anonHeaders, ...json }, row.email)),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(bodies.valid, wrongHeaders).map(([row, headers]) => post(row, headers)),
  },
  { weight: 2, arbitrary: bodies.unknownColumn.map((row) => post(row)) },
  // A robot filling the honeypot: answered like a person, never stored.
  {
    weight: 1,
    arbitrary: fc
      .oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.webUrl())
      .filter((website) => website.trim() !== '' && !website.includes('\u0000'))
      .filter((website) => !/[\uD800-\uDFFF]/.test(website))
      .map((website) => post({ ...validRow(), website })),
  },
  { weight: 3, arbitrary: bodies.wrongField.map((row) => post(row)) },
  { weight: 3, arbitrary: bodies.nastyField.map((row) => post(row)) },
  { weight: 1, arbitrary: bodies.missingField.map((row) => post(row)) },
  {
    weight: 3,
    arbitrary: bodies.randomJson
      .filter((value) => typeof value !== 'object' || value === null || Array.isArray(value))
      .map((value) => post(value)),
  },
  { weight: 2, arbitrary: bodies.nested.map((row) => post(row)) },
  {
    weight: 2,
    arbitrary: bodies.array.filter((rows) => rows.length > 0).map((rows) => post(rows)),
  },
  {
    weight: 2,
    arbitrary: fc
      .uint8Array({ maxLength: 300 })
      .map((bytes) => raw('POST', '/rest/v1/bookings', Buffer.from(bytes))),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(0xc3, 0xe2, 0xf0, 0xff, 0xfe, 0xed), fc.nat(200))
      .map(([byte, at]) => {
        // Valid JSON with one byte that makes the UTF-8 invalid inside a string.
        const text = Buffer.from(
          JSON.stringify({ ...validRow(), full_name: `Name ${'x'.repeat(at % 20)}` }),
        );
        const position = text.indexOf('Name') + 2;
        text[position] = byte;
        return raw('POST', '/rest/v1/bookings', text);
      }),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom('GET', 'PATCH', 'DELETE', 'PUT', 'OPTIONS', 'HEAD', 'TRACE'),
        fc.constantFrom(
          '/rest/v1/bookings',
          '/rest/v1/',
          '/rest/v1/other',
          '/rest/v1/bookings?select=*',
        ),
        fc.string({ maxLength: 30 }),
      )
      .map(([method, pathname, query]) =>
        raw(
          method,
          `${pathname}${pathname.includes('?') ? '&' : '?'}${encodeURIComponent(query)}=eq.1`,
          encoded(validRow()),
        ),
      ),
  },
  {
    weight: 1,
    arbitrary: fc
      .string({ maxLength: 60 })
      .map((query) =>
        raw(
          'POST',
          `/rest/v1/bookings?${query.replace(/[\s#]/g, '')}`,
          encoded({ ...validRow(), phone: 'x' }),
        ),
      ),
  },
);

function post(
  body: unknown,
  headers: Record<string, string> = { ...anonHeaders, ...json },
  storesEmail?: string,
): FuzzRequest {
  return { ...raw('POST', '/rest/v1/bookings', encoded(body)), headers, storesEmail };
}

function raw(method: string, path: string, body: Buffer): FuzzRequest {
  return { method, path, headers: { ...anonHeaders, ...json }, body, storesEmail: undefined };
}

function send(base: URL, agent: Agent, request: FuzzRequest): Promise<HttpAnswer> {
  return httpExchange(
    {
      host: base.hostname,
      port: base.port,
      method: request.method,
      path: request.path,
      // Framed explicitly: Node's client sends a GET, DELETE or OPTIONS body
      // unframed otherwise, and the server would read it as the next request.
      headers: { ...request.headers, 'content-length': String(request.body?.length ?? 0) },
      agent,
    },
    request.body,
  );
}

const engines = testEngines('fuzz');

describe.each(engines)('generated requests against the booking API on $name', (engine) => {
  const unexpectedErrors: unknown[] = [];
  const app = useTestApp(engine, () => ({
    logError: (_message, error) => unexpectedErrors.push(error),
  }));

  it(`answers ${requestsPerEngine} of them without a 5xx, in PostgREST's shape, storing exactly the valid ones`, async () => {
    const base = new URL(app.baseUrl);
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const storedEmails: string[] = [];
    const problems: string[] = [];
    const samples = fc.sample(fuzzRequest, { numRuns: requestsPerEngine, seed: 20261122 });

    // A few at a time, as several browsers would.
    for (let start = 0; start < samples.length; start += concurrency) {
      const batch = samples.slice(start, start + concurrency);
      const answers = await Promise.all(
        batch.map((request) =>
          send(base, agent, request).catch((error: Error) => ({
            status: -1,
            text: `${error.message} for ${request.method} ${request.path} (${request.body?.length} bytes, ${JSON.stringify(request.headers)})`,
          })),
        ),
      );
      answers.forEach((answer, index) => {
        const request = batch[index]!;
        if (request.storesEmail && answer.status === 201) storedEmails.push(request.storesEmail);
        if (answer.status >= 500)
          problems.push(`${answer.status} for ${request.method} ${request.path}: ${answer.text}`);
        if (request.storesEmail && answer.status !== 201)
          problems.push(`valid booking answered ${answer.status}: ${answer.text}`);
        if (answer.status >= 400 && request.method !== 'HEAD') {
          let shape: unknown;
          try {
            shape = JSON.parse(answer.text);
          } catch {
            problems.push(
              `${answer.status} without JSON for ${request.method} ${request.path}: ${answer.text.slice(0, 80)}`,
            );
            return;
          }
          const keys = Object.keys(shape as object)
            .sort()
            .join(',');
          if (keys !== 'code,details,hint,message')
            problems.push(`${answer.status} with keys ${keys}`);
        }
      });
    }
    agent.destroy();

    expect(problems.slice(0, 10)).toEqual([]);
    expect(unexpectedErrors).toEqual([]);
    const stored = await app.db.query<{ email: string }>('select email from public.bookings');
    expect(stored.rows.map((row) => row.email).sort()).toEqual([...storedEmails].sort());
    expect(storedEmails.length).toBeGreaterThan(requestsPerEngine / 20);
  }, 240_000);
});
