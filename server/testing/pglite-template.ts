import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findMigrationsDir } from '../db/migrate.ts';
import { openDatabase } from '../db/open-database.ts';
import { openPglite } from '../db/pglite.ts';

/**
 * Puts a migrated PGlite database in `<dataDir>/pgdata`, as the server's
 * first start would leave it; with `empty`, a new one with no migration
 * applied. Creating one takes about 3.7 s (initdb in WebAssembly, then every
 * migration); copying a migrated one and opening it, about 0.5 s. So the tests
 * copy one made once per set of migrations (none for an empty one) and PGlite
 * version, kept in the system's temporary folder under a name that changes
 * with either.
 */
export async function seedPglite(dataDir: string, { empty = false } = {}): Promise<void> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const template = await (empty ? emptyTemplate() : migratedTemplate());
  cpSync(template, path.join(dataDir, 'pgdata'), { recursive: true });
}

/** Made or found once per test file's process: every later seed copies it. */
let migratedMade: Promise<string> | undefined;
let emptyMade: Promise<string> | undefined;

function migratedTemplate(): Promise<string> {
  return (migratedMade ??= (async () => {
    const migrationsDir = findMigrationsDir();
    const hash = createHash('sha256').update(pgliteVersion());
    for (const file of readdirSync(migrationsDir).sort()) {
      hash.update(file).update(readFileSync(path.join(migrationsDir, file)));
    }
    return findOrMakeTemplate(hash.digest('hex').slice(0, 16), async (building) => {
      await (await openDatabase({ databaseUrl: undefined, dataDir: building })).close();
    });
  })());
}

function emptyTemplate(): Promise<string> {
  const hash = createHash('sha256').update(pgliteVersion()).digest('hex').slice(0, 16);
  return (emptyMade ??= findOrMakeTemplate(`empty-${hash}`, async (building) => {
    await (await openPglite(path.join(building, 'pgdata'))).close();
  }));
}

/** The template named `name` in the system's temporary folder, made by `build` unless there. */
async function findOrMakeTemplate(
  name: string,
  build: (dataDir: string) => Promise<void>,
): Promise<string> {
  const template = path.join(tmpdir(), `hijama-pglite-${name}`);
  if (existsSync(template)) return template;

  // Test files run in parallel: each may build one, the first rename wins.
  const building = mkdtempSync(`${template}-building-`);
  try {
    await build(building);
    renameSync(path.join(building, 'pgdata'), template);
  } catch (error) {
    if (!existsSync(template)) throw error;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return template;
}

/** As the project pins it (the package does not export its package.json). */
function pgliteVersion(): string {
  const manifest = new URL('../../package.json', import.meta.url);
  const { dependencies } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    dependencies: Record<string, string>;
  };
  return dependencies['@electric-sql/pglite'] ?? '';
}
