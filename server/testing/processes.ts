import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { staleBuilds } from '../../scripts/lib/build-freshness.mjs';

/** Shared by the tests that run the server or the bookings command in a process of its own. */

const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** The settings the server, the command and the Edge Function read from their environment. */
const settingNames =
  /^(PORT|HOST|DATA_DIR|DATABASE_URL|SUPABASE_DB_URL|ANON_KEY|DIST_DIR|SMTP_URL|NOTIFY_\w+|RETENTION|BOOKING_LIMIT_\w+|RATE_LIMIT_PER_MINUTE|TRUST_PROXY|MAX_PENDING_REQUESTS|DENO_CERT)$/;

export interface ChildRun {
  child: ChildProcessByStdio<null, Readable, Readable>;
  stdout: () => string;
  stderr: () => string;
  /** The exit code once the process has ended and its output is all read. */
  exited: Promise<number | null>;
}

/**
 * Runs an entry point of the server in a child process, from `cwd` (a directory
 * without .env) and with none of the settings of the test's own environment,
 * so that only `env` counts.
 */
export function spawnEntryPoint(
  entry: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): ChildRun {
  const [command, ...line] = entryPointCommand(entry, args);
  return spawnChild(command!, line, options);
}

const root = fileURLToPath(new URL('../..', import.meta.url));
let serverBuildFresh: boolean | undefined;

/** Whether dist-server/ was built from the sources present: `npm test` builds before the unit tests. */
function isServerBuildFresh(): boolean {
  serverBuildFresh ??= staleBuilds(root, ['server']).length === 0;
  return serverBuildFresh;
}

/**
 * The command line that runs an entry point of the server (its TypeScript) with
 * Node: its build when that is fresh, which starts with a third of the CPU
 * time that tsx takes to compile the sources, or else the sources through tsx.
 */
export function entryPointCommand(entry: string, args: string[] = []): string[] {
  if (isServerBuildFresh()) {
    const built = path
      .join(root, 'dist-server', path.relative(root, entry))
      .replace(/\.ts$/, '.js');
    return [process.execPath, built, ...args];
  }
  return [process.execPath, '--import', tsxLoader, entry, ...args];
}

/**
 * Runs `command` in a child process, from `cwd` and with only `env` of the
 * settings (nor any variable `without` names); see spawnEntryPoint.
 * `detached` starts it in a process group of its own.
 */
export function spawnChild(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; without?: RegExp; detached?: boolean },
): ChildRun {
  const inherited = { ...process.env };
  for (const name of Object.keys(inherited)) {
    if (settingNames.test(name) || options.without?.test(name)) delete inherited[name];
  }
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...inherited, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'close').then(([code]) => code as number | null);
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/**
 * The URL of the server's start line, once it is printed: a minute, for a
 * server that makes its embedded database on a busy machine.
 */
export async function listeningUrl(server: ChildRun, timeoutMs = 60_000): Promise<string> {
  const printed = () => /Listening on (http:\/\/\S+)/.exec(server.stdout())?.[1];
  // Each chunk of output is read as it comes (spawnChild's listener runs first),
  // until the line is there, the process ends or the time is up.
  const url = await new Promise<string | undefined>((resolve) => {
    const settle = () => {
      clearTimeout(timer);
      server.child.stdout.off('data', onOutput);
      resolve(printed());
    };
    const onOutput = () => {
      if (printed()) settle();
    };
    const timer = setTimeout(settle, timeoutMs);
    server.child.stdout.on('data', onOutput);
    void server.exited.then(settle);
    onOutput();
  });
  if (url) return url;
  throw new Error(`The server did not start.\n${server.stdout()}\n${server.stderr()}`);
}

/** The server's entry point (its build is run instead when fresh: entryPointCommand). */
export const serverEntry = fileURLToPath(new URL('../index.ts', import.meta.url));

/** The entry point of `npx hijama` (likewise). */
export const hijamaEntry = fileURLToPath(new URL('../cli/hijama.ts', import.meta.url));
