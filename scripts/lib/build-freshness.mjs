// Which builds are missing or made from other sources than the ones present.
// Plain JavaScript: it runs before anything is built (scripts/start.mjs), and
// records what a build was made from (`node scripts/lib/build-freshness.mjs
// record site`, at the end of each build script).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The two builds, each with the sources it is made from and the file it writes
 * last (its stamp). A source is a file or a folder (every file inside, tests
 * excepted: they are not built), less the folders a build leaves out.
 */
export const builds = [
  {
    name: 'site',
    script: 'build:site',
    stamp: 'dist/index.html',
    sources: [
      'src',
      'supabase/functions/_shared/core',
      'supabase/functions/_shared/content',
      'public',
      // The practice's photographs (scripts/lib/photos.ts).
      'photos',
      'index.html',
      'vite.config.ts',
      'tsconfig.json',
      'scripts/prerender.ts',
      'scripts/subset-fonts.mjs',
      'scripts/lib',
      // dist/_headers: the server's security headers, written by the build.
      'server/http/security-headers.ts',
      'server/http/headers-file.ts',
      'package-lock.json',
    ],
  },
  {
    name: 'server',
    script: 'build:server',
    stamp: 'dist-server/server/index.js',
    sources: [
      'server',
      'supabase/functions/_shared',
      // Carried in the build (scripts/lib/copy-migrations.mjs).
      'supabase/migrations',
      'scripts/lib/copy-migrations.mjs',
      'src/content',
      'src/boot',
      'tsconfig.json',
      'tsconfig.server.json',
      'package-lock.json',
    ],
    // The tests' helpers, left out as tsconfig.server.json's exclude leaves them.
    excluded: ['server/testing'],
  },
];

const ignoredFolders = new Set(['node_modules', '.git']);
const isTest = (name) => /\.(test|spec)\.[cm]?[jt]sx?$/.test(name);

/** Every file under `target` (a file or a folder), tests excepted, relative to `root`. */
function filesUnder(root, target) {
  const full = path.join(root, target);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [target];
  return readdirSync(full, { withFileTypes: true })
    .filter((entry) => !ignoredFolders.has(entry.name) && !isTest(entry.name))
    .flatMap((entry) => filesUnder(root, path.join(target, entry.name)));
}

/**
 * A hash of the names and contents of a build's sources. Contents, not
 * modification times: `npm prune` and a fresh checkout touch files without
 * changing them, and must not make a build look stale.
 */
export function sourcesHash(root, build) {
  const hash = createHash('sha256');
  const leftOut = (build.excluded ?? []).map((folder) => path.join(folder, path.sep));
  const files = build.sources
    .flatMap((source) => filesUnder(root, source))
    .filter((file) => !leftOut.some((folder) => file.startsWith(folder)))
    .sort();
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Where a build records the hash of the sources it was made from, beside its stamp. */
const recordOf = (root, build) => path.join(root, path.dirname(build.stamp), '.sources-sha256');

/** Records that the build `name` was just made from the sources present. */
export function recordBuild(root, name) {
  const build = builds.find((candidate) => candidate.name === name);
  if (!build) throw new Error(`No build named ${name}.`);
  writeFileSync(recordOf(root, build), `${sourcesHash(root, build)}\n`);
}

/**
 * The builds to make before serving: each whose stamp is missing, or that was
 * made from other sources. `exists` says whether there is a build to fall back on.
 * `names` limits the check, and the hashing of sources, to those builds.
 */
export function staleBuilds(root, names = builds.map(({ name }) => name)) {
  const stale = [];
  for (const build of builds.filter(({ name }) => names.includes(name))) {
    if (!existsSync(path.join(root, build.stamp))) {
      stale.push({ ...build, exists: false, reason: 'not built yet' });
      continue;
    }
    const record = recordOf(root, build);
    const builtFrom = existsSync(record) ? readFileSync(record, 'utf8').trim() : undefined;
    if (builtFrom !== sourcesHash(root, build)) {
      stale.push({ ...build, exists: true, reason: 'its sources changed since the last build' });
    }
  }
  return stale;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'record') {
  recordBuild(fileURLToPath(new URL('../..', import.meta.url)), process.argv[3]);
}
