// Which builds are missing or older than their sources. Plain JavaScript: it
// runs before anything is built (scripts/start.mjs).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The two builds, each with the sources it is made from and the file it writes
 * last (its stamp). A source is a file or a folder (every file inside, tests
 * excepted: they are not built).
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
      'src/content',
      'src/boot',
      'tsconfig.json',
      'tsconfig.server.json',
      'package-lock.json',
    ],
  },
];

const ignoredFolders = new Set(['node_modules', '.git']);
const isTest = (name) => /\.(test|spec)\.[cm]?[jt]sx?$/.test(name);

/** The newest modification time (ms) of the files under `target`, or 0 if none. */
function newestChange(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (ignoredFolders.has(entry.name) || isTest(entry.name)) continue;
    newest = Math.max(newest, newestChange(path.join(target, entry.name)));
  }
  return newest;
}

/**
 * The builds to make before serving: each whose stamp is missing, or older than
 * one of its sources. `exists` says whether there is a build to fall back on.
 */
export function staleBuilds(root) {
  const stale = [];
  for (const build of builds) {
    const stamp = path.join(root, build.stamp);
    if (!existsSync(stamp)) {
      stale.push({ ...build, exists: false, reason: 'not built yet' });
      continue;
    }
    const builtAt = statSync(stamp).mtimeMs;
    const changedAt = Math.max(
      ...build.sources.map((source) => newestChange(path.join(root, source))),
    );
    if (changedAt > builtAt) {
      stale.push({ ...build, exists: true, reason: 'its sources changed since the last build' });
    }
  }
  return stale;
}
