// `npm start`: serves what is built, building first only the part (the site,
// the server) that is missing or made from other sources than the ones present. Plain JavaScript, so
// that it runs after `npm prune --omit=dev`, when only the runtime packages
// are left and nothing can be built.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { staleBuilds } from './lib/build-freshness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

const stale = staleBuilds(root);
if (stale.length > 0) {
  const canBuild = existsSync(path.join(root, 'node_modules', '.bin', 'vite'));
  if (!canBuild) {
    const missing = stale.filter((build) => !build.exists);
    const names = stale.map((build) => build.name).join(' and ');
    if (missing.length > 0) {
      console.error(
        `The ${names} ${stale.length > 1 ? 'are' : 'is'} not built, and building needs the development packages, which are not installed. ` +
          'Run `npm ci && npm run build`, then `npm start` (docs/deploy.md).',
      );
      process.exit(1);
    }
    console.warn(
      `Warning: the ${names} ${stale.length > 1 ? 'are' : 'is'} not built from the sources present, and cannot be rebuilt without the development packages; serving the build as it is. ` +
        'To rebuild: `npm ci && npm run build`.',
    );
  } else {
    for (const build of stale) {
      console.log(`Building the ${build.name} (${build.reason})…`);
      const result = spawnSync('npm', ['run', build.script], { cwd: root, stdio: 'inherit' });
      if (result.status !== 0) {
        console.error(`\`npm run ${build.script}\` failed; the server was not started.`);
        process.exit(result.status ?? 1);
      }
    }
  }
}

await import(pathToFileURL(path.join(root, 'dist-server', 'server', 'index.js')).href);
