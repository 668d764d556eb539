import { describe, expect, it } from 'vitest';
import { bareEngines } from '../testing/bare-engines.ts';
import { readNewPgliteCatalog, readSchemaCatalog } from '../testing/schema-catalog.ts';

/**
 * The migrations, applied in order to an empty PGlite database (what
 * `npm start` runs on) and an empty PostgreSQL database, make the same schema:
 * the same tables, columns, constraints, indexes, functions, triggers,
 * policies, privileges and comments in public and app_private. (pg_net and
 * pg_cron, which only hosted Supabase has, live in schemas of their own.)
 */

const postgres = bareEngines().find((engine) => engine.name === 'PostgreSQL');

describe.runIf(postgres)('the schema the migrations make', () => {
  it('is the same on PGlite and on PostgreSQL', async () => {
    const { db } = await postgres!.open({ migrated: true });
    const onPglite = await readNewPgliteCatalog();
    expect(onPglite.length).toBeGreaterThan(100);
    expect(await readSchemaCatalog(db)).toEqual(onPglite);
  }, 180_000);
});
