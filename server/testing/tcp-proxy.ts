import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/**
 * A TCP relay on 127.0.0.1 that a test can cut and restore, to play a database
 * (or any peer) that stops answering and later comes back on the same address.
 */

async function startTcpProxy(
  target: { host: string; port: number },
  /** Changes the first chunk a caller sends (e.g. a PostgreSQL startup message) on its way. */
  rewriteFirstChunk?: (chunk: Buffer) => Buffer,
) {
  let relaying = true;
  let frozen = false;
  // The side facing the proxy's callers, and the side facing the target.
  const callers = new Set<Socket>();
  const upstreams = new Set<Socket>();

  // The proxy keeps listening while down, so that no other process can take
  // its port before it comes back up; refused connections are reset at once.
  const server = createServer((caller) => {
    if (!relaying) {
      caller.resetAndDestroy();
      return;
    }
    // Accepted, but held until the partition ends.
    if (frozen) caller.pause();
    const upstream = connect(target.port, target.host);
    callers.add(caller);
    upstreams.add(upstream);
    caller.on('close', () => callers.delete(caller));
    upstream.on('close', () => upstreams.delete(upstream));
    // Either side failing ends the relay, as a broken connection would.
    const cut = () => {
      caller.destroy();
      upstream.destroy();
    };
    caller.on('error', cut);
    upstream.on('error', cut);
    if (rewriteFirstChunk) {
      caller.once('data', (chunk: Buffer) => {
        upstream.write(rewriteFirstChunk(chunk));
        caller.pipe(upstream);
      });
    } else {
      caller.pipe(upstream);
    }
    upstream.pipe(caller);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const cutAll = () => {
    for (const caller of callers) caller.resetAndDestroy();
    for (const upstream of upstreams) upstream.destroy();
  };

  return {
    /** The port on 127.0.0.1 that relays to the target. */
    port,
    /** Resets every relayed connection and every new one, as a stopped peer would. */
    down: () => {
      relaying = false;
      cutAll();
    },
    /**
     * Stops relaying without closing anything, as a network partition would:
     * bytes sent either way are held back, and new connections get no answer.
     */
    freeze: () => {
      frozen = true;
      for (const socket of [...callers, ...upstreams]) socket.pause();
    },
    /** Relays new connections again (after down) or lets held bytes through (after freeze). */
    up: () => {
      relaying = true;
      frozen = false;
      for (const socket of [...callers, ...upstreams]) socket.resume();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        cutAll();
      }),
  };
}

/** A relay to a PostgreSQL server, with the URL that reaches the same database through it. */
export type DatabaseRelay = Awaited<ReturnType<typeof startTcpProxy>> & { url: string };

/** A relay to the PostgreSQL server of `databaseUrl`. */
export async function startDatabaseRelay(
  databaseUrl: string,
  rewriteFirstChunk?: (chunk: Buffer) => Buffer,
): Promise<DatabaseRelay> {
  const direct = new URL(databaseUrl);
  const relay = await startTcpProxy(
    { host: direct.hostname, port: Number(direct.port || 5432) },
    rewriteFirstChunk,
  );
  const through = new URL(databaseUrl);
  through.host = `127.0.0.1:${relay.port}`;
  return { ...relay, url: through.toString() };
}
