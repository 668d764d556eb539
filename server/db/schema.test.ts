import { afterAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, testDatabaseUrl } from '../testing/helpers.ts';
import { readNewPgliteCatalog, readSchemaCatalog } from '../testing/schema-catalog.ts';
import { migrate } from './migrate.ts';
import { openPostgres } from '../../supabase/functions/_shared/db/postgres.ts';

/**
 * The migrations, applied in order to an empty PGlite database (what
 * `npm start` runs on) and an empty PostgreSQL database, make the same schema:
 * the same tables, columns, constraints, indexes, functions, triggers,
 * policies, privileges and comments in public and app_private. (pg_net and
 * pg_cron, which only hosted Supabase has, live in schemas of their own.)
 */

const cleanUps: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanUp of cleanUps.reverse()) await cleanUp();
});

describe.runIf(testDatabaseUrl)('the schema the migrations make', () => {
  it('is the same on PGlite and on PostgreSQL', async () => {
    const scratch = await createScratchDatabase(testDatabaseUrl!);
    cleanUps.push(() => scratch.drop());
    const postgres = await openPostgres(scratch.url);
    cleanUps.push(() => postgres.close());

    await migrate(postgres);
    const onPglite = await readNewPgliteCatalog();
    expect(onPglite.length).toBeGreaterThan(100);
    expect(await readSchemaCatalog(postgres)).toEqual(onPglite);
  }, 180_000);
});
