import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import {
  request as httpRequest,
  type IncomingHttpHeaders,
  type RequestListener,
  type RequestOptions,
} from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import pg from 'pg';
import { developmentAnonKey } from '../../supabase/functions/_shared/core/api-defaults.ts';
import type { BookingLimits } from '../db/booking-limits.ts';
import { seedPglite } from './pglite-template.ts';
import { openDatabase, type OpenedDatabase } from '../db/open-database.ts';
import { commandSocketPath } from '../db/pglite-socket.ts';
import { createApp, type AppDeps } from '../app.ts';
import { createBookingsRepository } from '../../supabase/functions/_shared/db/bookings-repository.ts';
import type { Database } from '../../supabase/functions/_shared/db/database.ts';
import { createHttpServer } from '../http/http-server.ts';

/**
 * Shared by the server's tests (never imported by the server itself).
 * TEST_DATABASE_URL names a PostgreSQL database whose user may create
 * databases; every run makes its own database from it and drops it after.
 */

export const testDatabaseUrl = process.env.TEST_DATABASE_URL?.trim() || undefined;

/** The public key, as supabase-js sends it with every request. */
export const anonHeaders = {
  apikey: developmentAnonKey,
  Authorization: `Bearer ${developmentAnonKey}`,
};

/** The headers the site sends with a booking: the public key and JSON. */
export const anonJsonHeaders = { ...anonHeaders, 'Content-Type': 'application/json' };

/** An HTTP answer as node:http reads it: status, headers and the body, as sent and as text. */
export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/**
 * One request by node:http, which unlike fetch sends from a chosen local
 * address, through a chosen agent, any body with any method; answers once the
 * answer is read.
 */
export function httpExchange(options: RequestOptions, body?: Buffer | string): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(options, (response) => {
      buffer(response).then(
        (body) =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body,
            text: `${body}`,
          }),
        reject,
      );
    });
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * A POST of `body`, as JSON, to the API's bookings from `localAddress`, one
 * of loopback's (127.0.0.0/8 is all this machine's), on a connection of its own.
 */
export async function postBookingFrom(
  baseUrl: string,
  localAddress: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Record<string, unknown> | null }> {
  const payload = JSON.stringify(body);
  const { hostname, port } = new URL(baseUrl);
  const answer = await httpExchange(
    {
      host: hostname,
      port,
      path: '/rest/v1/bookings',
      method: 'POST',
      localAddress,
      agent: false,
      headers: {
        ...anonJsonHeaders,
        ...headers,
        'Content-Length': String(Buffer.byteLength(payload)),
      },
    },
    payload,
  );
  const parsed = answer.text === '' ? null : (JSON.parse(answer.text) as Record<string, unknown>);
  return { status: answer.status, headers: answer.headers, body: parsed };
}

/**
 * Sends `bytes` on a connection of its own (from `localAddress` if given),
 * ending it unless `keepOpen`, and answers what came back once it closed.
 */
export function exchangeRaw(
  baseUrl: string,
  bytes: Buffer | string,
  options: { localAddress?: string; keepOpen?: boolean } = {},
): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(
      { host: hostname, port: Number(port), localAddress: options.localAddress },
      () => (options.keepOpen ? socket.write(bytes) : socket.end(bytes)),
    );
    buffer(socket).then((bytes) => resolve(bytes.toString('latin1')), reject);
  });
}

/** An HTTP answer as read off the socket: status, headers (lower case) and body. */
export function parseRawAnswer(raw: string) {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => {
      const at = line.indexOf(':');
      return [line.slice(0, at).toLowerCase(), line.slice(at + 1).trim()];
    }),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

export interface ScratchDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export async function createScratchDatabase(
  adminUrl: string,
  owner?: string,
): Promise<ScratchDatabase> {
  const name = `hijama_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, (client) =>
    client.query(`create database ${name}${owner ? ` owner ${pg.escapeIdentifier(owner)}` : ''}`),
  );
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      await withClient(adminUrl, (client) =>
        client.query(`drop database if exists ${name} with (force)`),
      );
    },
  };
}

/**
 * `work` with a scratch database reached as a login role of its own, which
 * owns it or not, and may act as anon or not; both dropped after.
 */
export async function withOwnRole<T>(
  adminUrl: string,
  { owns, actsAsAnon }: { owns: boolean; actsAsAnon: boolean },
  work: (url: string, user: string) => Promise<T>,
): Promise<T> {
  const user = `hijama_plain_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, async (client) => {
    await client.query(`create role ${user} login`);
    if (!actsAsAnon) return;
    // Made by the first migration; a new cluster may not have it yet.
    await client.query(
      `do $$ begin create role anon nologin noinherit; exception when duplicate_object then null; end $$`,
    );
    await client.query(`grant anon to ${user}`);
  });
  const scratch = await createScratchDatabase(adminUrl, owns ? user : undefined);
  try {
    const url = new URL(scratch.url);
    url.username = user;
    url.password = '';
    return await work(url.toString(), user);
  } finally {
    await scratch.drop();
    await withClient(adminUrl, (client) => client.query(`drop role if exists ${user}`));
  }
}

export async function withClient<T>(
  url: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The rows of one query on the database of a running server, read as `npx
 * hijama` reads them, as the owner: by DATABASE_URL when the server's
 * environment sets it, else on the socket the server shares its embedded
 * database on, in DATA_DIR (server/db/pglite-socket.ts).
 */
export async function queryRunningServer<Row>(
  env: { DATA_DIR?: string; DATABASE_URL?: string },
  text: string,
  params: readonly unknown[] = [],
): Promise<Row[]> {
  const socketFolder = () => encodeURIComponent(path.dirname(commandSocketPath(env.DATA_DIR!)));
  const url = env.DATABASE_URL ?? `postgres://postgres@localhost/postgres?host=${socketFolder()}`;
  return withClient(url, async (client) => (await client.query(text, [...params])).rows as Row[]);
}

/**
 * `use` on the database a server's settings name (DATABASE_URL, else the
 * embedded one in DATA_DIR), opened by this process, as the server opens it,
 * while no server holds it; closed after.
 */
export async function withServerDatabase<T>(
  env: { DATA_DIR?: string; DATABASE_URL?: string },
  use: (db: Database) => Promise<T>,
): Promise<T> {
  const opened = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR ?? '' });
  try {
    return await use(opened.db);
  } finally {
    await opened.close();
  }
}

/**
 * The API and the site as the server makes them (server/app.ts) on `db`, on a
 * free port: the development anon key and an empty site folder unless `deps`
 * says otherwise.
 */
let emptySite: string | undefined;

export function serveApp(db: Database, deps: Partial<AppDeps> = {}): Promise<RunningServer> {
  return serve(
    createApp({
      bookings: createBookingsRepository(db),
      anonKey: developmentAnonKey,
      distDir: (emptySite ??= mkdtempSync(path.join(tmpdir(), 'hijama-empty-site-'))),
      ...deps,
    }),
  );
}

export interface RunningServer {
  baseUrl: string;
  close(): Promise<void>;
}

/** Serves `listener` on a free port of 127.0.0.1, with the server's time limits unless given. */
export async function serve(
  listener: RequestListener,
  timeouts?: Parameters<typeof createHttpServer>[1],
): Promise<RunningServer> {
  const server = createHttpServer(listener, timeouts);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A database engine the tests run against: PGlite always, PostgreSQL with TEST_DATABASE_URL. */
export interface TestEngine {
  name: string;
  open(): Promise<{ opened: OpenedDatabase; cleanUp(): Promise<void> }>;
}

/** The database's booking limits switched off, for tests that store many requests. */
export const noBookingLimits: BookingLimits = {
  perClientPerHour: 0,
  perEmailPerHour: 0,
  sitePerHour: 0,
};

/**
 * Fresh, migrated databases on every engine available; `label` names the
 * temporary folders. The database's booking limits are off unless given.
 */
export function testEngines(
  label: string,
  bookingLimits: Partial<BookingLimits> = noBookingLimits,
): TestEngine[] {
  const engines: TestEngine[] = [
    {
      name: 'PGlite',
      open: async () => {
        const dataDir = mkdtempSync(path.join(tmpdir(), `hijama-${label}-`));
        await seedPglite(dataDir);
        const opened = await openDatabase({ databaseUrl: undefined, dataDir, bookingLimits });
        return { opened, cleanUp: async () => rmSync(dataDir, { recursive: true, force: true }) };
      },
    },
  ];
  if (testDatabaseUrl) {
    engines.push({ name: 'PostgreSQL', open: () => openScratchPostgres(bookingLimits) });
  }
  return engines;
}

/**
 * A fresh, migrated database of TEST_DATABASE_URL, opened, with its URL for
 * what runs in another process; the booking limits as the database's own
 * unless given.
 */
export async function openScratchPostgres(bookingLimits?: Partial<BookingLimits>) {
  const scratch = await createScratchDatabase(testDatabaseUrl!);
  const opened = await openDatabase({ databaseUrl: scratch.url, dataDir: '', bookingLimits });
  return { opened, url: scratch.url, cleanUp: () => scratch.drop() };
}

/** A database engine for a server run in a process of its own, as the settings that choose it. */
export interface ServerEngine {
  name: string;
  prepare(workDir: string): Promise<{ env: Record<string, string>; cleanUp(): Promise<void> }>;
}

/** PGlite in `<workDir>/data` always; a scratch PostgreSQL database with TEST_DATABASE_URL. */
export function serverEngines(): ServerEngine[] {
  const engines: ServerEngine[] = [
    {
      name: 'PGlite',
      prepare: async (workDir) => {
        await seedPglite(path.join(workDir, 'data'));
        return { env: { DATA_DIR: path.join(workDir, 'data') }, cleanUp: async () => {} };
      },
    },
  ];
  if (testDatabaseUrl) {
    const adminUrl = testDatabaseUrl;
    engines.push({
      name: 'PostgreSQL',
      prepare: async () => {
        const scratch = await createScratchDatabase(adminUrl);
        return { env: { DATABASE_URL: scratch.url }, cleanUp: () => scratch.drop() };
      },
    });
  }
  return engines;
}
