import { existsSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockFileName } from './db/data-dir-lock.ts';
import { refusedSetupExitStatus } from './db/private-data-dir.ts';
import { anonJsonHeaders, serverEngines, withServerDatabase } from './testing/helpers.ts';
import { waitFor } from './testing/notification-peers.ts';
import { seedPglite } from './testing/pglite-template.ts';
import { listeningUrl, type ChildRun } from './testing/processes.ts';
import { useServerRuns } from './testing/server-runs.ts';
import { bookingBody, postBooking } from './testing/booking-samples.ts';

/**
 * The real entry point in child processes: start line, lock, signals, exit
 * codes. The data folders hold a copy of the migrated template: making a new
 * database on first start is data-dir-permissions.test.ts's.
 */

const [pglite] = serverEngines();
const servers = useServerRuns('index', pglite);
const dataDir = () => servers.databaseEnv.DATA_DIR!;
const { start } = servers;

describe('the server process', () => {
  it('refuses a bad configuration with a clear message', async () => {
    const server = start({ PORT: 'eighty' });
    // As for a data folder it may not use: systemd would only repeat the message.
    expect(await server.exited).toBe(refusedSetupExitStatus);
    expect(server.stderr()).toContain('PORT must be a whole number from 0 to 65535 (got "eighty")');
    expect(server.stdout()).toBe('');
  });

  it('refuses a HOST it cannot listen on, saying what to set instead of a stack', async () => {
    const server = start({ HOST: '192.0.2.1' });
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toContain(
      'HOST=192.0.2.1 is not an address of this machine: set HOST to one of its addresses, 127.0.0.1 behind a proxy or 0.0.0.0 for every one.\n',
    );
    expect(server.stderr()).not.toMatch(/^\s+at /m);
  });

  it("serves from a data folder too deep for the command's socket, and warns of it and of a retired setting at start", async () => {
    const deepDir = path.join(
      servers.workDir,
      'a-folder-whose-path-is-too-long-for-a-unix-socket'.repeat(2),
    );
    await seedPglite(deepDir);
    const server = start({ DATA_DIR: deepDir, SERVICE_ROLE_KEY: 'a key 1.0 read' });
    const url = await listeningUrl(server);
    expect(server.stderr()).toContain('Warning: SERVICE_ROLE_KEY is no longer used;');
    expect(server.stderr()).toContain(
      `Warning: the path of ${deepDir} is too long for the socket on which \`npx hijama\` reaches the database`,
    );
    const posted = await postBooking(url, { full_name: 'Deep Guest' });
    expect(posted.status).toBe(201);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  describe('on one data directory', () => {
    let first: ChildRun;
    let firstUrl: string;

    it('logs its URL and what it deletes when, then serves the site and the API', async () => {
      first = start();
      firstUrl = await listeningUrl(first);
      await waitFor(() => first.stdout().includes('daily'), 'the start lines');
      expect(first.stdout()).toBe(
        `Listening on ${firstUrl} (PGlite in ${path.join(dataDir(), 'pgdata')})\n` +
          'Booking requests older than 12 months are deleted at start and daily.\n',
      );
      expect(firstUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(firstUrl)).status).toBe(200);
      const posted = await postBooking(firstUrl, { full_name: 'First Guest' });
      expect(posted.status).toBe(201);
    });

    it('refuses a second server on the same data directory with a clear message', async () => {
      const second = start();
      expect(await second.exited).toBe(1);
      expect(second.stderr()).toContain(`is in use by another server (process ${first.child.pid} `);
      expect((await fetch(firstUrl)).status).toBe(200);
    });

    it('on SIGTERM finishes the request in flight, closes the database and exits with 0', async () => {
      const body = Buffer.from(bookingBody({ full_name: 'Second Guest' }));
      const { hostname, port } = new URL(firstUrl);
      const req = httpRequest({
        hostname,
        port,
        path: '/rest/v1/bookings',
        method: 'POST',
        headers: { ...anonJsonHeaders, 'Content-Length': body.length },
      });
      const answered = new Promise<number>((resolve, reject) => {
        req.on('response', (res: IncomingMessage) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
      });
      // Half the body now, the rest once the signal has stopped the server listening.
      await new Promise((resolve) => req.write(body.subarray(0, 10), resolve));
      // Answered after the half request reached the server, which takes its connections in turn.
      expect((await fetch(firstUrl)).status).toBe(200);
      first.child.kill('SIGTERM');
      const refused = () =>
        fetch(firstUrl).then(
          () => false,
          () => true,
        );
      await waitFor(refused, 'the server to stop listening');
      req.end(body.subarray(10));
      expect(await answered).toBe(201);
      expect(await first.exited).toBe(0);
      // The two start lines, and nothing more.
      expect(first.stdout().trim().split('\n')).toHaveLength(2);
      expect(existsSync(path.join(dataDir(), lockFileName))).toBe(false);

      const { rows } = await withServerDatabase({ DATA_DIR: dataDir() }, (db) =>
        db.query<{ full_name: string }>('select full_name from public.bookings order by full_name'),
      );
      expect(rows).toEqual([{ full_name: 'First Guest' }, { full_name: 'Second Guest' }]);
    });
  });
});
