import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

/**
 * A new temporary folder named after `label`, made before each test of the
 * file or describe block (before the block's first with `once`) and removed
 * after it.
 */
export function useTempDir(label: string, options: { once?: boolean } = {}): () => string {
  let dir = '';
  (options.once ? beforeAll : beforeEach)(() => {
    dir = mkdtempSync(path.join(tmpdir(), `hijama-${label}-`));
  });
  (options.once ? afterAll : afterEach)(() => rmSync(dir, { recursive: true, force: true }));
  return () => dir;
}
