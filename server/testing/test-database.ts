import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../../supabase/functions/_shared/db/database.ts';
import type { OpenedDatabase } from '../db/open-database.ts';
import type { TestEngine } from './helpers.ts';

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
