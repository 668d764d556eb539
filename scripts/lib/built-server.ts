import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { seedPglite } from '../../server/testing/pglite-template.ts';
import { listeningUrl, spawnChild } from '../../server/testing/processes.ts';

export interface RunningServer {
  url: string;
  pid: number;
  dataDir: string;
  stop: () => Promise<void>;
}

/** A free TCP port on loopback, found by letting the system pick one. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) =>
    probe.once('error', reject).listen(0, '127.0.0.1', resolve),
  );
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Starts the built server (`npm run build` first) on a free port with a fresh
 * embedded database, and resolves once it says it listens (it answers from
 * then on). Unless DATA_DIR or DATABASE_URL is given, the database is a copy
 * of a migrated one, as the server's first start leaves it
 * (pglite-template.ts): seconds of CPU less for each server.
 */
export async function startBuiltServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? (await mkdtemp(join(tmpdir(), 'hijama-data-')));
  if (!env.DATA_DIR && !env.DATABASE_URL) await seedPglite(dataDir);
  // The settings of this process's environment are left out (spawnChild): only these count.
  const server = spawnChild(process.execPath, ['dist-server/server/index.js'], {
    cwd: process.cwd(),
    env: { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ...env },
  });

  // The server opens its database, and migrates it first when it is new (a
  // PostgreSQL one, or a DATA_DIR given empty), then prints its start line:
  // seconds on a quiet machine, more than 30 s beside two browsers on a slow
  // one. The same minute as the browser tests' own server (playwright.config.ts).
  const startMs = 60_000;
  let url: string;
  try {
    url = await listeningUrl(server, startMs);
  } catch (error) {
    server.child.kill('SIGKILL');
    throw error;
  }

  return {
    url,
    pid: server.child.pid ?? 0,
    dataDir,
    stop: async () => {
      if (server.child.exitCode === null) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
      if (!env.DATA_DIR) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Builds the site as `npm run build:site` does (its three steps), with `env`
 * added to the environment, into a new temporary folder, and returns that
 * folder (for `startBuiltServer`'s DIST_DIR).
 */
export async function buildSiteInto(env: Record<string, string>): Promise<string> {
  const run = promisify(execFile);
  const siteDir = await mkdtemp(join(tmpdir(), 'hijama-site-'));
  const options = { env: { ...process.env, ...env } };
  const vite = 'node_modules/vite/bin/vite.js';
  // Inside the project, so that the server bundle finds react in node_modules.
  const ssrDir = `dist-ssr-${basename(siteDir)}`;
  await run(process.execPath, [vite, 'build', '--outDir', siteDir, '--emptyOutDir'], options);
  await run(
    process.execPath,
    [vite, 'build', '--ssr', 'src/entry-server.tsx', '--outDir', ssrDir, '--emptyOutDir'],
    options,
  );
  await run(
    process.execPath,
    ['--import', 'tsx', 'scripts/prerender.ts', siteDir, ssrDir],
    options,
  );
  await rm(ssrDir, { recursive: true, force: true });
  return siteDir;
}
