import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { BookingInsert } from '../../supabase/functions/_shared/db/bookings-repository.ts';
import type { Database } from '../../supabase/functions/_shared/db/database.ts';
import { listMigrations } from '../db/migrate.ts';
import { denoBinary } from './deno.ts';
import { freePort } from './notification-peers.ts';
import { listeningUrl, spawnChild, type ChildRun } from './processes.ts';

/**
 * A local stand-in for a hosted Supabase project, for the tests of the hosted
 * path: its database made of the real parts (PostgreSQL 15 with pg_net,
 * supabase_vault and pg_cron, preloaded), which the start.sh of a
 * supabase-stack directory starts (its README says what it has; it needs root,
 * as it runs PostgreSQL as the `postgres` user), and its Edge Functions run by
 * the project's Deno. There is no PostgREST: requests are stored as it stores them.
 */

const execFileAsync = promisify(execFile);
const pgCtl = '/usr/lib/postgresql/15/bin/pg_ctl';

export interface SupabaseStack {
  /** The `postgres` database as its owner, as SUPABASE_DB_URL is for an Edge Function. */
  url: string;
  /** The server's log, to show when a test fails. */
  log(): string;
  stop(): Promise<void>;
}

/** Starts a cluster of the stack in a temporary folder, on a free port of 127.0.0.1. */
export async function startSupabaseStack(stackDir: string): Promise<SupabaseStack> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hijama-supabase-'));
  const port = await freePort();
  const log = () => {
    try {
      return readFileSync(path.join(dir, 'pg.log'), 'utf8');
    } catch {
      return '';
    }
  };
  const stop = async () => {
    await execFileAsync('su', ['postgres', '-c', `${pgCtl} -D '${dir}/data' -m fast stop`]).catch(
      () => {},
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // The first run on a machine builds the extensions (about a minute).
    await execFileAsync('bash', [path.join(stackDir, 'start.sh'), dir, String(port)], {
      timeout: 300_000,
    });
  } catch (error) {
    const output = log();
    await stop();
    throw new Error(`The Supabase stack did not start: ${String(error)}\n${output}`, {
      cause: error,
    });
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, log, stop };
}

/**
 * Applies supabase/migrations as `supabase db push` does: each file once, in
 * name order, in a transaction of its own, as the `postgres` user. Unlike the
 * project's server (migrate.ts), it keeps no record of its own in app_private:
 * the database is what a hosted project's would be.
 */
export async function pushMigrations(db: Database, migrationsDir: string): Promise<void> {
  for (const file of await listMigrations(migrationsDir)) {
    const sql = await readFile(path.join(migrationsDir, file), 'utf8');
    try {
      await db.transaction((tx) => tx.exec(sql));
    } catch (error) {
      throw new Error(`Migration ${file} failed on the Supabase stack: ${String(error)}`, {
        cause: error,
      });
    }
  }
}

/**
 * An Edge Function under the project's Deno (tools/deno/, which `installDeno()`
 * installs), as Supabase's Edge Runtime runs it: `entry` serves on PORT, which
 * is a free port of this machine. Another process may take that port before
 * Deno binds it; then it starts again on another.
 */
export async function startEdgeFunction(options: {
  entry: string;
  env: Record<string, string>;
}): Promise<{ url: string; run: ChildRun; stop(): Promise<void> }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const run = spawnChild(denoBinary, ['run', '--allow-all', options.entry], {
      // In the function's folder, whose deno.json names its packages.
      cwd: path.dirname(options.entry),
      env: { ...options.env, PORT: String(port) },
    });
    const stop = async () => {
      run.child.kill('SIGTERM');
      await run.exited;
    };
    try {
      await listeningUrl(run);
      return { url: `http://127.0.0.1:${port}/`, run, stop };
    } catch (error) {
      await stop();
      if (attempt < 3 && run.stderr().includes('AddrInUse')) continue;
      throw error;
    }
  }
}

/**
 * Inserts one booking request as PostgREST does for the site's form: as
 * `anon`, with the request's headers (the client's address among them) in
 * `request.headers`, in one transaction. No `returning`: anon cannot read the
 * table.
 */
export async function insertAsPostgrest(
  db: Database,
  row: BookingInsert,
  headers: Record<string, string>,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('set local role anon');
    await tx.query(`select set_config('request.headers', $1, true)`, [JSON.stringify(headers)]);
    await tx.query(
      `insert into public.bookings (id, full_name, phone, email, instagram)
       values ($1, $2, $3, $4, $5)`,
      [row.id, row.full_name, row.phone, row.email, row.instagram],
    );
  });
}
