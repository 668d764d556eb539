import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { developmentAnonKey } from '../../supabase/functions/_shared/core/api-defaults.ts';
import type { BookingLimits } from '../db/booking-limits.ts';
import { seedMigratedPglite } from './pglite-template.ts';
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

/** The headers the site sends with a booking: the public key, as supabase-js sends it, and JSON. */
export const anonJsonHeaders = {
  apikey: developmentAnonKey,
  Authorization: `Bearer ${developmentAnonKey}`,
  'Content-Type': 'application/json',
};

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

/** Serves `listener` on a free port of 127.0.0.1. */
export async function serve(listener: RequestListener): Promise<RunningServer> {
  const server = createHttpServer(listener);
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
        await seedMigratedPglite(dataDir);
        const opened = await openDatabase({ databaseUrl: undefined, dataDir, bookingLimits });
        return { opened, cleanUp: async () => rmSync(dataDir, { recursive: true, force: true }) };
      },
    },
  ];
  if (testDatabaseUrl) {
    const adminUrl = testDatabaseUrl;
    engines.push({
      name: 'PostgreSQL',
      open: async () => {
        const scratch = await createScratchDatabase(adminUrl);
        const opened = await openDatabase({ databaseUrl: scratch.url, dataDir: '', bookingLimits });
        return { opened, cleanUp: () => scratch.drop() };
      },
    });
  }
  return engines;
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
        await seedMigratedPglite(path.join(workDir, 'data'));
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
