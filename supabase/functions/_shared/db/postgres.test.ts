import { readdirSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  noBookingLimits,
  testDatabaseUrl,
  withClient,
  withOwnRole,
} from '../../../../server/testing/helpers.ts';
import { useScratchPostgres } from '../../../../server/testing/test-database.ts';
import { bareEngines } from '../../../../server/testing/bare-engines.ts';
import {
  findMigrationsDir,
  hasTable,
  migrate,
  MigrationRefusedError,
} from '../../../../server/db/migrate.ts';
import { DatabaseRoleError, openDatabase } from '../../../../server/db/open-database.ts';
import { openPostgres } from './postgres.ts';
import { startDatabaseRelay } from '../../../../server/testing/tcp-proxy.ts';
import { DatabaseError, DatabaseUnavailableError } from './database.ts';

/** Real PostgreSQL only: set TEST_DATABASE_URL (a user that may create databases and roles). */
describe.runIf(testDatabaseUrl)('the bookings schema on PostgreSQL', () => {
  const adminUrl = testDatabaseUrl ?? '';
  // The schema's rules, not the limits on visitors (server/limits/abuse-limits.test.ts).
  const scratch = useScratchPostgres(noBookingLimits);
  const emptyDatabases = bareEngines().find((engine) => engine.name === 'PostgreSQL');

  /** Runs `work` on a connection of its own inside a transaction that is always rolled back. */
  async function rolledBack<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
    return withClient(scratch.url, async (client) => {
      await client.query('begin');
      try {
        return await work(client);
      } finally {
        await client.query('rollback');
      }
    });
  }

  const asRole = (role: string, sql: string, params: unknown[] = []) =>
    rolledBack(async (client) => {
      await client.query(`set local role ${role}`);
      return client.query(sql, params);
    });

  it("runs visitors' statements as anon, also behind a pooler that drops the startup option setting the role", async () => {
    // A relay that removes `options` from PostgreSQL's startup message, as a
    // connection pooler may do without a word.
    const pooler = await startDatabaseRelay(scratch.url, withoutStartupOption('options'));
    try {
      for (const url of [scratch.url, pooler.url]) {
        const db = await openPostgres(url);
        try {
          // anon may insert, never read: reading proves which role ran the statement.
          const refused = db.queryAsAnon('select count(*) from public.bookings', []);
          await expect(refused).rejects.toBeInstanceOf(DatabaseError);
          await expect(refused).rejects.toMatchObject({ code: '42501' });
          await db.queryAsAnon(insert, [crypto.randomUUID()]);
        } finally {
          await db.close();
        }
      }
    } finally {
      await pooler.close();
      await scratch.db.query('delete from public.bookings');
    }
  });

  it('gives up on a database that stops answering without closing the connection, and recovers', async () => {
    const relay = await startDatabaseRelay(scratch.url);
    const db = await openPostgres(relay.url, { queryTimeoutMs: 1_000 });
    try {
      await db.queryAsAnon(insert, [crypto.randomUUID()]);
      // A network partition: nothing arrives, nothing closes.
      relay.freeze();
      const started = Date.now();
      await expect(db.queryAsAnon(insert, [crypto.randomUUID()])).rejects.toBeInstanceOf(
        DatabaseUnavailableError,
      );
      expect(Date.now() - started).toBeLessThan(5_000);
      relay.up();
      await db.queryAsAnon(insert, [crypto.randomUUID()]);
    } finally {
      await db.close();
      await relay.close();
      await scratch.db.query('delete from public.bookings');
    }
  });

  const insert = `insert into public.bookings (id, full_name, phone, email, instagram) values ($1, 'Amina Khan', '01634 123456', 'amina@example.com', null)`;

  it("has Supabase's API roles", async () => {
    const { rows } = await scratch.db.query<{ rolname: string; rolbypassrls: boolean }>(
      `select rolname, rolbypassrls from pg_roles where rolname in ('anon', 'authenticated', 'service_role') order by rolname`,
    );
    expect(rows).toEqual([
      { rolname: 'anon', rolbypassrls: false },
      { rolname: 'authenticated', rolbypassrls: false },
      { rolname: 'service_role', rolbypassrls: true },
    ]);
  });

  it.each([
    ['anon', 'select', 'select * from public.bookings'],
    ['anon', 'select one column', 'select id from public.bookings'],
    ['anon', 'update', `update public.bookings set full_name = 'Changed'`],
    ['anon', 'delete', 'delete from public.bookings'],
    ['anon', 'insert returning the row', `${insert} returning *`],
    ['anon', 'insert or ignore', `${insert} on conflict (id) do nothing`],
    [
      'anon',
      'insert with its own created_at',
      `insert into public.bookings (full_name, phone, email, created_at) values ('A', '01634 123456', 'a@b.co', now())`,
    ],
    // The site never uses authenticated: it may do nothing at all.
    ['authenticated', 'insert', insert],
    ['authenticated', 'select', 'select * from public.bookings'],
  ])('refuses %s %s', async (role, _case, sql) => {
    const params = sql.includes('$1') ? [crypto.randomUUID()] : [];
    await expect(asRole(role, sql, params)).rejects.toMatchObject({ code: '42501' });
  });

  it('lets service_role read what anon inserted', async () => {
    const id = crypto.randomUUID();
    const rows = await rolledBack(async (client) => {
      await client.query('set local role anon');
      await client.query(insert, [id]);
      await client.query('set local role service_role');
      const read = 'select id::text, instagram from public.bookings where id = $1';
      return (await client.query(read, [id])).rows;
    });
    expect(rows).toEqual([{ id, instagram: null }]);
  });

  it('applies each migration once when two servers start together', async () => {
    const { db: first, reopen } = await emptyDatabases!.open();
    const second = await reopen();
    const reports = await Promise.all([migrate(first), migrate(second)]);
    // Each file once, by either server: which one applies which depends on timing.
    const files = readdirSync(findMigrationsDir()).filter((name) => name.endsWith('.sql'));
    expect(files.length).toBeGreaterThan(3);
    expect(reports.flatMap((report) => report.applied).sort()).toEqual(files.sort());
  });

  it('refuses to start as a user that cannot switch to anon, naming the grant to run', async () => {
    await withOwnRole(adminUrl, { owns: true, actsAsAnon: false }, async (url, user) => {
      const attempt = openDatabase({ databaseUrl: url, dataDir: '' });
      await expect(attempt).rejects.toBeInstanceOf(DatabaseRoleError);
      await expect(attempt).rejects.toThrow(`grant anon to "${user}"`);
    });
  });

  it("refuses to start on a Supabase project's database before `supabase db push`, changing nothing", async () => {
    const { db } = await emptyDatabases!.open();
    await db.exec('create schema vault');
    const attempt = migrate(db);
    await expect(attempt).rejects.toBeInstanceOf(MigrationRefusedError);
    await expect(attempt).rejects.toThrow(/`supabase db push` has not made yet/);
    expect(await hasTable(db, 'app_private.schema_migrations')).toBe(false);
  });

  it('refuses to start as a user that does not own its database, for good, saying so', async () => {
    await withOwnRole(adminUrl, { owns: false, actsAsAnon: true }, async (url) => {
      const attempt = openDatabase({ databaseUrl: url, dataDir: '' });
      await expect(attempt).rejects.toBeInstanceOf(MigrationRefusedError);
      await expect(attempt).rejects.toThrow(
        /^Recording the migrations failed: permission denied for database .*: it must own its database/,
      );
    });
  });
});

/** Rewrites a PostgreSQL startup message without the parameter `name`; other chunks pass as they are. */
function withoutStartupOption(name: string) {
  return (chunk: Buffer): Buffer => {
    const protocol3 = 196_608;
    if (chunk.length < 8 || chunk.readInt32BE(4) !== protocol3) return chunk;
    const fields = chunk
      .subarray(8, chunk.readInt32BE(0) - 1)
      .toString('utf8')
      .split('\0');
    const kept: string[] = [];
    for (let i = 0; i + 1 < fields.length; i += 2) {
      if (fields[i] !== name) kept.push(fields[i]!, fields[i + 1]!);
    }
    const body = Buffer.from(`${kept.join('\0')}\0\0`, 'utf8');
    const header = Buffer.alloc(8);
    header.writeInt32BE(8 + body.length, 0);
    header.writeInt32BE(protocol3, 4);
    return Buffer.concat([header, body, chunk.subarray(chunk.readInt32BE(0))]);
  };
}
