import { statSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../supabase/functions/_shared/db/database.ts';
import { openPostgres } from '../../supabase/functions/_shared/db/postgres.ts';
import { useTempDir } from '../testing/temp-dir.ts';
import { seedPglite } from '../testing/pglite-template.ts';
import { openPglite, type PgliteDatabase } from './pglite.ts';
import { commandSocketPath, type SharedSocket } from './pglite-socket.ts';

/** The server's PGlite shared on its socket: real PGlite, real connections of `pg`. */

describe('PGlite shared on a Unix socket', () => {
  const maxHoldMs = 300;
  const socketDir = useTempDir('pglite-socket', { once: true });
  let dir: string;
  let server: PgliteDatabase;
  let shared: SharedSocket;
  let connection: string;

  beforeAll(async () => {
    dir = socketDir();
    await seedPglite(dir, { empty: true });
    server = await openPglite(path.join(dir, 'pgdata'));
    shared = await server.shareOnSocket(commandSocketPath(dir), { maxHoldMs });
    connection = `postgres://postgres@localhost/postgres?host=${encodeURIComponent(dir)}`;
    await server.exec('create table visits (n int)');
  });

  afterAll(async () => {
    await shared?.close();
    await server?.close();
  });

  const count = async (db: Database) =>
    (await db.query<{ n: number }>('select count(*)::int as n from visits')).rows[0]!.n;

  it('is readable and writable by its user alone', () => {
    expect(statSync(commandSocketPath(dir)).mode & 0o777).toBe(0o600);
  });

  it("runs a command's transaction whole before the server's next query, and several connections in turn", async () => {
    const command = await openPostgres(connection);
    try {
      const order: string[] = [];
      let serverSaw: Promise<number> | undefined;
      await command.transaction(async (tx) => {
        await tx.query('insert into visits values (1)');
        serverSaw = count(server).then((n) => {
          order.push('server read');
          return n;
        });
        await tx.query('insert into visits values (2)');
        order.push('command wrote both');
      });
      expect(await serverSaw).toBe(2);
      expect(order).toEqual(['command wrote both', 'server read']);

      const other = await openPostgres(connection);
      try {
        const counts = await Promise.all([count(command), count(other), count(server)]);
        expect(counts).toEqual([2, 2, 2]);
      } finally {
        await other.close();
      }
    } finally {
      await command.query('delete from visits');
      await command.close();
    }
  });

  it('rolls back and closes a connection that keeps its turn in silence, and the server goes on', async () => {
    const silent = new pg.Client(connection);
    const ended = new Promise<void>((resolve) => silent.once('end', resolve));
    silent.on('error', () => {});
    await silent.connect();
    await silent.query('begin');
    await silent.query('insert into visits values (3)');
    // Waits for the turn the silent connection holds, then sees its insert undone.
    expect(await count(server)).toBe(0);
    await ended;
    expect(server.description).toContain(dir);
  });

  /** A raw connection past its startup: what a client does before its first query. */
  async function startedConnection() {
    const socket = createConnection(commandSocketPath(dir));
    socket.on('error', () => {});
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const received: Buffer[] = [];
    const ready = new Promise<void>((resolve) =>
      socket.on('data', (chunk) => {
        received.push(chunk);
        if (Buffer.concat(received).includes('Z\0\0\0\x05I')) resolve();
      }),
    );
    const user = Buffer.from('user\0postgres\0\0');
    const startup = Buffer.alloc(8);
    startup.writeInt32BE(8 + user.length, 0);
    startup.writeInt32BE(196608, 4);
    socket.write(Buffer.concat([startup, user]));
    await ready;
    return { socket, closed };
  }

  /** A message of type `type` whose length field says `length`. */
  function message(type: string, body: Buffer, length = 4 + body.length) {
    const header = Buffer.alloc(5);
    header.write(type);
    header.writeInt32BE(length, 1);
    return Buffer.concat([header, body]);
  }

  it('ends an extended query a connection left half sent, and the server goes on', async () => {
    const { socket } = await startedConnection();
    // Parse, with no Sync after it: the connection keeps its turn until it closes.
    socket.write(message('P', Buffer.from('\0insert into visits values (4)\0\0\0')));
    const serverRead = count(server);
    socket.destroy();
    expect(await serverRead).toBe(0);
    expect(await count(server)).toBe(0);
  });

  it('closes a connection that sends a malformed message, and the server goes on', async () => {
    const { socket, closed } = await startedConnection();
    socket.write(message('Q', Buffer.alloc(0), 0));
    await closed;
    expect(await count(server)).toBe(0);
  });
});
