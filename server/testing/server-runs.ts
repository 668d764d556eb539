import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { ServerEngine } from './helpers.ts';
import {
  listeningUrl,
  serverEntry,
  spawnChild,
  entryPointCommand,
  type ChildRun,
} from './processes.ts';
import { useTempDir } from './temp-dir.ts';

/** `sh` arguments that run the command after them under `umask`. */
export const underUmask = (umask: string) => ['-c', `umask ${umask} && exec "$@"`, 'sh'];

/**
 * Server processes for the tests of one file (or describe block): a work
 * folder made before them, `engine`'s database prepared in it, and after them
 * every process killed, the database dropped and the folder removed.
 */
export function useServerRuns(label: string, engine?: ServerEngine) {
  // Removed after the hooks below have stopped the processes that run in it.
  const workDir = useTempDir(label, { once: true });
  const runs: ChildRun[] = [];
  let distDir = '';
  let databaseEnv: Record<string, string> = {};
  let cleanUp = async () => {};

  beforeAll(async () => {
    distDir = path.join(workDir(), 'dist');
    mkdirSync(distDir);
    writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>Hijama</title>');
    if (engine) ({ env: databaseEnv, cleanUp } = await engine.prepare(workDir()));
  });

  afterAll(async () => {
    for (const run of runs) run.child.kill('SIGKILL');
    await Promise.all(runs.map((run) => run.exited));
    await cleanUp();
  });

  /**
   * The server in a process of its own, on any free port, serving the built
   * site, with the engine's database and `env` on top. `umask` runs it under
   * that umask (through `sh`), as a login shell would start it.
   */
  const start = (env: Record<string, string> = {}, options: { umask?: string } = {}) => {
    const settings = {
      cwd: workDir(),
      env: { ...databaseEnv, PORT: '0', DIST_DIR: distDir, ...env },
    };
    const server = entryPointCommand(serverEntry);
    const [command, ...args] = options.umask
      ? ['sh', ...underUmask(options.umask), ...server]
      : server;
    const run = spawnChild(command!, args, settings);
    runs.push(run);
    return run;
  };

  return {
    /** The folder the servers run from (no .env in it); `<workDir>/dist` is their one-page built site. */
    get workDir() {
      return workDir();
    },
    /** Where the engine put the database (DATA_DIR or DATABASE_URL); empty without an engine. */
    get databaseEnv() {
      return databaseEnv;
    },
    start,
    /** As start, once its start line gives the URL it listens on. */
    async listen(env?: Record<string, string>) {
      const run = start(env);
      // A busy machine may take a while to migrate PostgreSQL or copy PGlite.
      return { run, url: await listeningUrl(run) };
    },
  };
}
