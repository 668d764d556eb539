import { PGlite } from '@electric-sql/pglite';
import { afterEach, expect, it, vi } from 'vitest';
import { useTempDir } from '../testing/temp-dir.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { openDatabase } from './open-database.ts';

const dataDir = useTempDir('open-database');

afterEach(() => vi.restoreAllMocks());

it('says that the data folder’s disk is full when PGlite cannot make its files, and lets go of the folder', async () => {
  // What PGlite throws then: Emscripten's file-system error, a number and no message.
  const full = { name: 'ErrnoError', errno: 51 };
  vi.spyOn(PGlite, 'create').mockRejectedValueOnce(full);
  const dir = dataDir();
  await expect(openDatabase({ databaseUrl: undefined, dataDir: dir })).rejects.toThrow(
    `DATA_DIR: ${dir} cannot be used: its disk is full.`,
  );
  lockDataDir(dir).release();
});
