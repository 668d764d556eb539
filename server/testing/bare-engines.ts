import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { migrate } from '../db/migrate.ts';
import { openPglite } from '../db/pglite.ts';
import type { Database } from '../../supabase/functions/_shared/db/database.ts';
import { openPostgres } from '../../supabase/functions/_shared/db/postgres.ts';
import { createScratchDatabase, testDatabaseUrl } from './helpers.ts';
import { seedPglite } from './pglite-template.ts';

/** A database engine whose databases start empty: no migration applied. */
export interface BareEngine {
  name: string;
  /**
   * A new empty database, open, or with `migrated` one as this deployment
   * makes it (the migrations applied, nothing stored); `env` names it as the
   * server's settings do, `reopen` opens it again once closed. Closed (those
   * the test left open) and removed after the file's tests.
   */
  open(options?: {
    migrated?: boolean;
  }): Promise<{ db: Database; env: Record<string, string>; reopen(): Promise<Database> }>;
}

/** Empty databases on every engine available: PGlite always, PostgreSQL with TEST_DATABASE_URL. */
export function bareEngines(): BareEngine[] {
  const cleanUps: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanUp of cleanUps.reverse()) await cleanUp();
  });
  /** `db`, closed after the file's tests unless the test has closed it. */
  const tracked = async (opening: Promise<Database>): Promise<Database> => {
    const db = await opening;
    const close = db.close.bind(db);
    let closed: Promise<void> | undefined;
    db.close = () => (closed ??= close());
    cleanUps.push(() => db.close());
    return db;
  };
  const engines: BareEngine[] = [
    {
      name: 'PGlite',
      open: async (options) => {
        const dataDir = mkdtempSync(path.join(tmpdir(), 'hijama-bare-'));
        cleanUps.push(async () => rmSync(dataDir, { recursive: true, force: true }));
        // A copy of a template either way: quicker than making one (pglite-template.ts).
        await seedPglite(dataDir, { empty: !options?.migrated });
        // Where the server keeps it (open-database.ts).
        const pgdata = path.join(dataDir, 'pgdata');
        return {
          db: await tracked(openPglite(pgdata)),
          env: { DATA_DIR: dataDir },
          reopen: () => tracked(openPglite(pgdata)),
        };
      },
    },
  ];
  if (testDatabaseUrl) {
    const adminUrl = testDatabaseUrl;
    engines.push({
      name: 'PostgreSQL',
      open: async (options) => {
        const scratch = await createScratchDatabase(adminUrl);
        cleanUps.push(() => scratch.drop());
        const db = await tracked(openPostgres(scratch.url));
        if (options?.migrated) await migrate(db);
        return {
          db,
          env: { DATABASE_URL: scratch.url },
          reopen: () => tracked(openPostgres(scratch.url)),
        };
      },
    });
  }
  return engines;
}
