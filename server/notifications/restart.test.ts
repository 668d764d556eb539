import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { developmentAnonKey } from '../../core/api-defaults.ts';
import {
  createScratchDatabase,
  testDatabaseUrl,
  type ScratchDatabase,
} from '../testing/helpers.ts';
import {
  freePort,
  sleep,
  startSmtpPeer,
  waitFor,
  type SmtpPeer,
} from '../testing/notification-peers.ts';

/**
 * The server process killed (SIGKILL) after a booking was stored and before
 * its notification went out: the next start sends it, once.
 */

const entry = fileURLToPath(new URL('../index.ts', import.meta.url));
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

interface ServerProcess {
  child: ChildProcessByStdio<null, Readable, Readable>;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

interface Engine {
  name: string;
  prepare(workDir: string): Promise<{ env: Record<string, string>; cleanUp(): Promise<void> }>;
}

const engines: Engine[] = [
  {
    name: 'PGlite',
    prepare: async (workDir) => ({
      env: { DATA_DIR: path.join(workDir, 'data') },
      cleanUp: async () => {},
    }),
  },
];
if (testDatabaseUrl) {
  const adminUrl = testDatabaseUrl;
  engines.push({
    name: 'PostgreSQL',
    prepare: async () => {
      const scratch: ScratchDatabase = await createScratchDatabase(adminUrl);
      return { env: { DATABASE_URL: scratch.url }, cleanUp: () => scratch.drop() };
    },
  });
}

describe.each(engines)('a server killed before sending a notification, on $name', (engine) => {
  let workDir: string;
  let env: Record<string, string>;
  let cleanUp: () => Promise<void>;
  let smtpPort: number;
  let peer: SmtpPeer | undefined;
  const started: ServerProcess[] = [];

  beforeAll(async () => {
    workDir = mkdtempSync(path.join(tmpdir(), 'hijama-restart-'));
    const distDir = path.join(workDir, 'dist');
    mkdirSync(distDir);
    writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>Hijama</title>');
    smtpPort = await freePort();
    const prepared = await engine.prepare(workDir);
    cleanUp = prepared.cleanUp;
    env = {
      ...prepared.env,
      PORT: '0',
      DIST_DIR: distDir,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      NOTIFY_TO: 'practice@example.com',
      NOTIFY_POLL_SECONDS: '0.2',
      NOTIFY_RETRY_SECONDS: '1',
      NOTIFY_RETRY_MAX_SECONDS: '1',
      RETENTION: '12m',
    };
  });

  afterAll(async () => {
    for (const server of started) server.child.kill('SIGKILL');
    await Promise.all(started.map((server) => server.exited));
    await peer?.close();
    await cleanUp?.();
    rmSync(workDir, { recursive: true, force: true });
  });

  function start(): ServerProcess {
    const inherited = { ...process.env };
    for (const name of Object.keys(inherited)) {
      if (
        /^(PORT|HOST|DATA_DIR|DATABASE_URL|ANON_KEY|SERVICE_ROLE_KEY|DIST_DIR|SMTP_URL|NOTIFY_\w+|RETENTION)$/.test(
          name,
        )
      ) {
        delete inherited[name];
      }
    }
    // Run from a directory without .env.
    const child = spawn(process.execPath, ['--import', tsxLoader, entry], {
      cwd: workDir,
      env: { ...inherited, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = once(child, 'exit').then(([code]) => code as number | null);
    const server = { child, stdout: () => stdout, stderr: () => stderr, exited };
    started.push(server);
    return server;
  }

  async function listening(server: ServerProcess): Promise<string> {
    await waitFor(
      () => /Listening on http:\/\/\S+/.test(server.stdout()) || server.child.exitCode !== null,
      'the server to start',
      30_000,
    );
    const match = /Listening on (http:\/\/\S+)/.exec(server.stdout());
    if (!match)
      throw new Error(`The server did not start.\n${server.stdout()}\n${server.stderr()}`);
    return match[1]!;
  }

  it('sends the notification after the restart, exactly once', async () => {
    const first = start();
    const url = await listening(first);
    expect(first.stdout()).toContain(
      'Booking requests are notified by e-mail to practice@example.com.\n' +
        'Booking requests older than 12 months are deleted at start and daily.\n',
    );
    const id = crypto.randomUUID();
    const posted = await fetch(`${url}/rest/v1/bookings`, {
      method: 'POST',
      headers: { apikey: developmentAnonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        id,
        full_name: 'Killed Before Sending',
        phone: '01634 123456',
        email: 'guest@example.com',
        instagram: null,
      }),
    });
    expect(posted.status).toBe(201);

    // The SMTP server is unreachable: the first attempt fails and is recorded…
    await waitFor(() => /failed \(attempt 1\)/.test(first.stderr()), 'the first attempt');
    // …and the process dies before its next attempt, a second later.
    first.child.kill('SIGKILL');
    await first.exited;

    peer = await startSmtpPeer({ port: smtpPort });
    const second = start();
    await listening(second);
    await waitFor(() => peer!.mails.length === 1, 'the e-mail after the restart', 20_000);
    await sleep(1_000);
    expect(peer.mails).toHaveLength(1);
    expect(peer.mails[0]!.parsed.subject).toBe('Booking request from Killed Before Sending');
    expect(peer.mails[0]!.parsed.messageId).toMatch(new RegExp(`^<booking-${id}@`));
    expect(second.stdout()).toContain(`Notified the practice of booking ${id}`);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
