import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyLimitLifted } from '../server/limits/limits-config.ts';
import { serverEngines } from '../server/testing/helpers.ts';
import { postBooking } from '../server/testing/booking-samples.ts';
import { startSmtpPeer, waitFor, type SmtpPeer } from '../server/testing/notification-peers.ts';
import { listeningUrl, spawnChild, type ChildRun } from '../server/testing/processes.ts';
import type { BookingRecord } from '../server/cli/bookings-output.ts';
import { useTempDir } from '../server/testing/temp-dir.ts';

/**
 * The production install of docs/deploy.md on a clean clone of this
 * repository's HEAD (committed work only): `npm ci && npm run build && npm
 * prune --omit=dev`, after which the server, `npx hijama` and the notifier run
 * with the runtime dependencies alone. Takes a few minutes (npm ci and the
 * build); the sizes it measures are printed.
 */

const repository = fileURLToPath(new URL('..', import.meta.url));

const root = useTempDir('production', { once: true });
let app: string;

type Run = { code: number | null; stdout: string; stderr: string };

/**
 * A command started in the installed copy, with none of this test run's npm
 * or project settings in its environment: only `env` and the basics.
 */
const startInApp = (
  command: string,
  args: string[],
  env: Record<string, string>,
  options: { detached?: boolean } = {},
): ChildRun =>
  spawnChild(command, args, {
    cwd: app,
    env,
    without: /^(npm_|NODE_OPTIONS$|INIT_CWD$|RATE_LIMIT_|VITE_)/,
    ...options,
  });

/** A command run to its end in the installed copy (see startInApp). */
async function run(
  command: string,
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 120_000,
): Promise<Run> {
  const started = startInApp(command, args, env);
  const timer = setTimeout(() => started.child.kill('SIGKILL'), timeoutMs);
  const code = await started.exited;
  clearTimeout(timer);
  return { code, stdout: started.stdout(), stderr: started.stderr() };
}

/** npm's warnings about the machine's own npm settings, which say nothing about the project. */
function withoutNpmWarnings(text: string): string {
  return text
    .split('\n')
    .filter((line) => !line.startsWith('npm warn'))
    .join('\n');
}

function expectSuccess(result: Run, what: string) {
  if (result.code !== 0) {
    throw new Error(`${what} failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
  }
}

function diskUsage(target: string): string {
  return spawnSync('du', ['-sh', target], { encoding: 'utf8' }).stdout.split('\t')[0]!;
}

beforeAll(async () => {
  app = path.join(root(), 'app');
  const clone = spawnSync('git', ['clone', '--quiet', '--no-hardlinks', repository, app], {
    encoding: 'utf8',
  });
  if (clone.status !== 0) throw new Error(`git clone failed: ${clone.stderr}`);
  // The documented sequence, step by step so that a failure names its step.
  expectSuccess(
    await run('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], {}, 600_000),
    'npm ci',
  );
  expectSuccess(await run('npm', ['run', 'build'], {}, 600_000), 'npm run build');
  expectSuccess(
    await run('npm', ['prune', '--omit=dev', '--no-audit', '--no-fund'], {}, 300_000),
    'npm prune',
  );
  console.log(
    `Production install: node_modules ${diskUsage(path.join(app, 'node_modules'))}, ` +
      `the whole folder ${diskUsage(app)} (with .git ${diskUsage(path.join(app, '.git'))}).`,
  );
}, 1_200_000);

it('leaves only the runtime dependencies', () => {
  for (const runtime of ['@electric-sql/pglite', 'pg', 'nodemailer']) {
    expect(existsSync(path.join(app, 'node_modules', runtime)), runtime).toBe(true);
  }
  for (const devOnly of ['typescript', 'tsx', 'vite', 'vitest', 'react']) {
    expect(existsSync(path.join(app, 'node_modules', devOnly)), devOnly).toBe(false);
  }
});

// What it prints for each command line is hijama-cli.test.ts's; here, that npx finds and runs it.
it('runs npx hijama --help', async () => {
  const help = await run('npx', ['hijama', '--help']);
  expect(help.code).toBe(0);
  expect(help.stdout).toMatch(/^Usage: npx hijama <command> \[options\]/);
});

// Refused before any database is opened, so once, on no database; what the command says is
// hijama-cli.test.ts's, here that the settings npm really keeps are the ones it looks for.
it('refuses what npm kept for itself, as npm really runs it', async () => {
  const dryRun = await run('npm', 'run bookings --dry-run -- purge --older-than 1d'.split(' '));
  expect(dryRun.code).not.toBe(0);
  expect(dryRun.stderr).toContain('\n  npm run bookings -- purge --older-than 1d --dry-run\n');
  const since = await run('npm', ['run', 'bookings', '--since', '7d']);
  expect(since.code).not.toBe(0);
  expect(since.stderr).toContain('\n  npm run bookings -- --since 7d\n');
});

describe.each(serverEngines())('the installed server on $name', (engine) => {
  let env: Record<string, string>;
  let cleanUp: () => Promise<void>;
  let peer: SmtpPeer;
  let server: ChildRun | undefined;
  let url: string;
  const ids = [crypto.randomUUID(), crypto.randomUUID()];

  beforeAll(async () => {
    const workDir = mkdtempSync(path.join(root(), `${engine.name}-`));
    const prepared = await engine.prepare(workDir);
    cleanUp = prepared.cleanUp;
    peer = await startSmtpPeer();
    const mail = {
      SMTP_URL: `smtp://127.0.0.1:${peer.port}`,
      NOTIFY_TO: 'practice@example.com',
      NOTIFY_FROM: 'site@example.com',
      // The daily summary has tests of its own; here it would add an e-mail after 07:00.
      NOTIFY_DAILY_SUMMARY_AT: 'off',
    };
    env = { ...prepared.env, ...mail };
    // On PGlite the server holds the database and notifies itself; on PostgreSQL the
    // notifier may run on its own (as for a hosted database), here `npx hijama notify`.
    const serverEnv = {
      ...prepared.env,
      ...everyLimitLifted,
      PORT: '0',
      ...(engine.name === 'PGlite' ? mail : {}),
    };
    // `npm start` as docs/deploy.md runs it: it serves the build, and builds nothing.
    // A group of its own: npm does not pass SIGTERM on to the server it
    // started, so the whole group is stopped at the end.
    server = startInApp('npm', ['start'], serverEnv, { detached: true });
    url = await listeningUrl(server);
    expect(server.stdout() + server.stderr()).not.toMatch(/Building the/);
    env.PORT = new URL(url).port;
    for (const id of ids) {
      const booking = { id, full_name: 'Installed Test', email: `${id}@example.com` };
      const response = await postBooking(url, booking);
      expect(response.status).toBe(201);
    }
  }, 120_000);

  afterAll(async () => {
    if (server?.child.pid !== undefined && server.child.exitCode === null) {
      process.kill(-server.child.pid, 'SIGTERM');
      await server.exited;
    }
    await peer?.close();
    await cleanUp?.();
  });

  it('answers npx hijama list --json', async () => {
    const result = await run('npx', ['hijama', 'list', '--json'], env);
    expect(withoutNpmWarnings(result.stderr)).toBe('');
    expect(result.code).toBe(0);
    const records = JSON.parse(result.stdout) as BookingRecord[];
    expect(records.map((record) => record.id).sort()).toEqual([...ids].sort());
  });

  // That npx hijama notify refuses to run beside the server on PGlite is hijama-cli.test.ts's.
  it('sends the notifications: the server itself on PGlite, npx hijama notify --once on PostgreSQL', async () => {
    const toPractice = () => peer.mails.filter((mail) => mail.to.includes('practice@example.com'));
    if (engine.name === 'PGlite') {
      await waitFor(() => toPractice().length >= ids.length, 'the notifications', 30_000);
    } else {
      const result = await run('npx', ['hijama', 'notify', '--once'], env);
      expect(withoutNpmWarnings(result.stderr)).toBe('');
      expect(result.stdout).toMatch(
        /\nSent 2 notifications by e-mail to practice@example\.com\.\n$/,
      );
      expect(result.code).toBe(0);
    }
    expect(toPractice().map((mail) => mail.parsed.subject)).toEqual([
      'Booking request from Installed Test',
      'Booking request from Installed Test',
    ]);
    // And each visitor was told, once.
    const acknowledged = peer.mails.filter((mail) => !mail.to.includes('practice@example.com'));
    expect(acknowledged).toHaveLength(ids.length);
  });

  it('backs up with npx hijama backup', async () => {
    const file = path.join(root(), `${engine.name}-backup.json`);
    const result = await run('npx', ['hijama', 'backup', file], env);
    expect(withoutNpmWarnings(result.stderr)).toBe('');
    expect(result.stdout).toMatch(/^Backed up 2 booking requests \(0 answered\), 2 notifications/);
  });
});
