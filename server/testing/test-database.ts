import { afterAll, beforeAll, expect } from 'vitest';
import type { Database } from '../../supabase/functions/_shared/db/database.ts';
import type { AppDeps } from '../app.ts';
import type { BookingLimits } from '../db/booking-limits.ts';
import type { OpenedDatabase } from '../db/open-database.ts';
import { openScratchPostgres, serveApp, type RunningServer, type TestEngine } from './helpers.ts';

/**
 * A fresh, migrated database of `engine` for one describe block: opened
 * before its tests, closed and removed after them.
 */
export function useTestDatabase(engine: TestEngine): { readonly db: Database } {
  let opened: OpenedDatabase | undefined;
  let cleanUp: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ opened, cleanUp } = await engine.open());
  });

  afterAll(async () => {
    await opened?.close();
    await cleanUp?.();
  });

  return {
    get db() {
      if (!opened) throw new Error('The database is opened before the block’s tests.');
      return opened.db;
    },
  };
}

/**
 * An engine of fresh, migrated databases of TEST_DATABASE_URL, with the URL of
 * the one it opened last, for another connection or another process.
 */
export function scratchPostgresEngine(bookingLimits?: BookingLimits) {
  let url = '';
  const engine: TestEngine = {
    name: 'PostgreSQL',
    open: async () => {
      const scratch = await openScratchPostgres(bookingLimits);
      url = scratch.url;
      return scratch;
    },
  };
  return {
    engine,
    get url() {
      return url;
    },
  };
}

/**
 * A fresh, migrated database of TEST_DATABASE_URL for one describe block, as
 * useTestDatabase, with its URL for what runs in another process.
 */
export function useScratchPostgres(bookingLimits?: BookingLimits) {
  const scratch = scratchPostgresEngine(bookingLimits);
  const database = useTestDatabase(scratch.engine);
  return {
    get db() {
      return database.db;
    },
    get url() {
      return scratch.url;
    },
  };
}

/**
 * The app as serveApp makes it, on a fresh database of `engine`, for one
 * describe block; `deps` may use the database.
 */
export function useTestApp(
  engine: TestEngine,
  deps: (db: Database) => Partial<AppDeps> = () => ({}),
): { readonly db: Database; readonly baseUrl: string } {
  const database = useTestDatabase(engine);
  let server: RunningServer | undefined;

  beforeAll(async () => {
    server = await serveApp(database.db, deps(database.db));
  });

  afterAll(async () => {
    await server?.close();
  });

  return {
    get db() {
      return database.db;
    },
    get baseUrl() {
      if (!server) throw new Error('The app is served before the block’s tests.');
      return server.baseUrl;
    },
  };
}

/**
 * Checks an error of the API: its status and code, in PostgREST's JSON shape,
 * with CORS and never cached. Answers its body.
 */
export async function expectApiError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  expect(response.headers.get('cache-control')).toBe('no-store');
  const body = (await response.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['code', 'details', 'hint', 'message']);
  expect(body.code).toBe(code);
  return body as { code: string; message: string; details: string | null; hint: string | null };
}

/** The client networks the database's booking limits counted, oldest first. */
export async function countedNetworks(db: Database): Promise<string[]> {
  const { rows } = await db.query<{ network: string }>(
    'select network from app_private.booking_clients order by created_at',
  );
  return rows.map((row) => row.network);
}
