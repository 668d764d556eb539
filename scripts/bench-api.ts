/**
 * Load on the booking endpoint over loopback: requests per second, latency
 * percentiles and the server's peak memory, for the embedded PGlite and for
 * PostgreSQL. Every request is a valid booking with its own id, as browsers send.
 *
 * Usage: npm run bench:api                    (10 s per engine)
 *        npm run bench:api -- --duration 60   (a soak)
 * PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local server;
 * a database of its own is created for the run and dropped after.
 */
// Every limit lifted: all the load comes from one address, far above what the
// database would accept from a real site in a minute.
import { everyLimitLifted } from '../server/limits/limits-config.ts';
import { createScratchDatabase, type ScratchDatabase } from '../server/testing/helpers.ts';
import { loadBookings, peakMemoryMiB } from './lib/booking-load.ts';
import { startBuiltServer, type RunningServer } from './lib/built-server.ts';
import { argument, benchPostgresUrl } from './lib/bench-options.ts';
import { tableLines, type Column } from './lib/table.ts';

const durationSeconds = Number(argument('--duration') ?? 10);
const connections = Number(argument('--connections') ?? 32);

interface Row {
  engine: string;
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  peakMiB: number | undefined;
}

async function load(engine: string, server: RunningServer): Promise<Row> {
  const result = await loadBookings(server.url, { connections, duration: durationSeconds });
  return {
    engine,
    requests: result.requests.total,
    perSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    peakMiB: await peakMemoryMiB(server.pid),
  };
}

async function withPostgresDatabase<T>(run: (url: string) => Promise<T>): Promise<T | undefined> {
  let scratch: ScratchDatabase;
  try {
    scratch = await createScratchDatabase(benchPostgresUrl);
  } catch (error) {
    console.warn(
      `PostgreSQL at ${benchPostgresUrl} is not reachable (${(error as Error).message}); skipping it.`,
    );
    return undefined;
  }
  try {
    return await run(scratch.url);
  } finally {
    await scratch.drop().catch(() => {});
  }
}

const rows: Row[] = [];

const embedded = await startBuiltServer(everyLimitLifted);
try {
  rows.push(await load('PGlite', embedded));
} finally {
  await embedded.stop();
}

const postgresRow = await withPostgresDatabase(async (url) => {
  const server = await startBuiltServer({ ...everyLimitLifted, DATABASE_URL: url });
  try {
    return await load('PostgreSQL', server);
  } finally {
    await server.stop();
  }
});
if (postgresRow) rows.push(postgresRow);

console.log(
  `\nPOST /rest/v1/bookings, ${connections} connections, ${durationSeconds} s per engine, loopback`,
);
const columns: Column<Row>[] = [
  { title: 'engine', width: 12, left: true, cell: (row) => row.engine },
  { title: 'requests', width: 9, cell: (row) => row.requests },
  { title: 'req/s', width: 7, cell: (row) => row.perSecond },
  { title: 'p50 ms', width: 8, cell: (row) => row.p50 },
  { title: 'p99 ms', width: 8, cell: (row) => row.p99 },
  { title: 'non-2xx', width: 9, cell: (row) => row.non2xx },
  { title: 'errors', width: 8, cell: (row) => row.errors },
  { title: 'peak RSS', width: 10, cell: (row) => `${row.peakMiB ?? '?'} MiB` },
];
for (const line of tableLines(columns, rows)) console.log(line);
