import { chmodSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import path from 'node:path';
import type { Mutex, PGlite } from '@electric-sql/pglite';

/**
 * The running server's embedded database, shared with `npx hijama` on a Unix
 * socket in the data folder, in PostgreSQL's wire protocol: the command then
 * reads and writes by SQL, as it does on PostgreSQL, and the HTTP API serves
 * only the site and its visitors.
 *
 * PGlite is one session. Whoever holds `turns` (the server's queries, or one
 * connection of the command) has it alone, and a connection keeps its turn
 * until the database answers "ready, outside any transaction": a transaction
 * of the command never interleaves with the server's, nor an extended query
 * (parse, bind, execute, sync) with anything. A connection that stops talking
 * while holding its turn is rolled back and closed after `maxHoldMs` (5 s by
 * default), so the server's own queries never wait on it for longer.
 * Session settings are the one session's too: the command sets none but with
 * `set local`, which ends with its transaction.
 */

/** The socket in the data folder, under the name PostgreSQL's clients look for in a socket directory. */
export function commandSocketPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), '.s.PGSQL.5432');
}

/** How long a connection may keep its turn without sending anything (inside a transaction). */
const defaultMaxHoldMs = 5_000;

/**
 * Unix socket paths are at most 107 bytes on Linux (103 on macOS). A data
 * folder deeper than that cannot hold the socket: the server then does not
 * share its database, and the command says why.
 */
const maxSocketPathBytes = 103;

export function socketPathFits(socketPath: string): boolean {
  return Buffer.byteLength(socketPath) <= maxSocketPathBytes;
}

const sslRequestCode = 80877103;
const gssEncRequestCode = 80877104;
const cancelRequestCode = 80877102;
const syncMessage = Uint8Array.of(0x53, 0, 0, 0, 4);

export interface SharedSocket {
  close(): Promise<void>;
}

/** Listens on `socketPath`, readable and writable by this user alone (0600). */
export async function shareOnSocket(
  pglite: PGlite,
  turns: Mutex,
  socketPath: string,
  { maxHoldMs = defaultMaxHoldMs }: { maxHoldMs?: number } = {},
): Promise<SharedSocket> {
  const connections = new Set<Socket>();
  const server = createServer((socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
    serveConnection(pglite, turns, socket, maxHoldMs);
  });
  // A socket left by a server that was killed: the data-folder lock says no server holds it now.
  rmSync(socketPath, { force: true });
  server.listen(socketPath);
  await once(server, 'listening');
  // The folder is already closed to other users (private-data-dir.ts); the socket is closed too.
  chmodSync(socketPath, 0o600);
  return {
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of connections) socket.destroy();
      await closed;
    },
  };
}

function serveConnection(pglite: PGlite, turns: Mutex, socket: Socket, maxHoldMs: number) {
  let received = Buffer.alloc(0);
  let started = false;
  let releaseTurn: (() => void) | undefined;
  let holdTimer: NodeJS.Timeout | undefined;
  // One chunk at a time, in order, and the clean-up after the last.
  let work = Promise.resolve();

  const giveBackTurn = async () => {
    clearTimeout(holdTimer);
    if (!releaseTurn) return;
    try {
      // An unfinished extended query, then an open transaction, are ended before the server goes on.
      await pglite.execProtocolRaw(syncMessage);
      if (pglite.isInTransaction()) await pglite.exec('rollback');
    } finally {
      releaseTurn();
      releaseTurn = undefined;
    }
  };

  const handle = async (chunk: Buffer) => {
    clearTimeout(holdTimer);
    received = Buffer.concat([received, chunk]);
    for (;;) {
      const message = nextMessage(received, started);
      if (!message) break;
      received = received.subarray(message.length);
      if (!started) {
        const code = message.readInt32BE(4);
        if (code === sslRequestCode || code === gssEncRequestCode) {
          socket.write('N');
          continue;
        }
        if (code === cancelRequestCode) {
          socket.end();
          return;
        }
        started = true;
      } else if (message[0] === 0x58) {
        // Terminate: the connection ends; PGlite's one session does not.
        socket.end();
        return;
      }
      releaseTurn ??= await turns.acquire();
      const answer = await pglite.execProtocolRaw(new Uint8Array(message));
      if (!socket.destroyed) socket.write(answer);
      if (isReadyOutsideTransaction(answer)) {
        releaseTurn();
        releaseTurn = undefined;
      }
    }
    if (releaseTurn) holdTimer = setTimeout(() => socket.destroy(), maxHoldMs);
  };

  socket.on('data', (chunk) => {
    work = work.then(() => handle(chunk)).catch(() => void socket.destroy());
  });
  socket.on('error', () => {});
  socket.once('close', () => {
    work = work.then(giveBackTurn).catch(() => {});
  });
}

/**
 * The first whole message in `buffer`: untyped before the startup (at least
 * length and code), then type byte and length. A length shorter than its own
 * header is no message: the connection is closed (the caller catches).
 */
function nextMessage(buffer: Buffer, started: boolean): Buffer | undefined {
  const headerLength = started ? 5 : 8;
  if (buffer.length < headerLength) return undefined;
  const length = started ? 1 + buffer.readInt32BE(1) : buffer.readInt32BE(0);
  if (length < headerLength) throw new Error(`Malformed message of length ${length}`);
  return buffer.length >= length ? buffer.subarray(0, length) : undefined;
}

/** Whether the answer ends with ReadyForQuery 'I': no transaction is open. */
function isReadyOutsideTransaction(answer: Uint8Array): boolean {
  const end = answer.length;
  return end >= 6 && answer[end - 6] === 0x5a && answer[end - 1] === 0x49;
}
