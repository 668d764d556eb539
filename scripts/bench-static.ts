/**
 * Load on the built site's files over loopback: requests per second and
 * latency for the home page and a hashed script, plain, compressed and
 * revalidated (304), as browsers ask for them.
 *
 * Usage: npm run bench:static                           (this checkout, 5 s a case)
 *        npm run bench:static -- --compare ../other     (alternates with another built
 *                                                        checkout: A, B, A, B)
 *        npm run bench:static -- --duration 10 --connections 16
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import autocannon from 'autocannon';
import { startBuiltServer } from './lib/built-server.ts';

const durationSeconds = Number(argument('--duration') ?? 5);
const connections = Number(argument('--connections') ?? 16);
const compare = argument('--compare');

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

interface Case {
  name: string;
  path: string;
  headers: Record<string, string>;
  /** Sends the ETag of a first answer as If-None-Match. */
  revalidate?: boolean;
}

async function cases(checkout: string): Promise<Case[]> {
  const assets = await readdir(path.join(checkout, 'dist', 'assets'));
  const script = assets.find((name) => /^index-.+\.js$/.test(name));
  if (!script) throw new Error('No dist/assets/index-*.js: run `npm run build` first.');
  const asset = `/assets/${script}`;
  // What browsers send; fetch sends it too unless told otherwise.
  const br = 'gzip, deflate, br';
  return [
    { name: 'home, plain', path: '/', headers: {} },
    { name: 'home, br', path: '/', headers: { 'accept-encoding': br } },
    { name: 'home, gzip', path: '/', headers: { 'accept-encoding': 'gzip' } },
    { name: 'home, 304', path: '/', headers: { 'accept-encoding': br }, revalidate: true },
    { name: 'asset, plain', path: asset, headers: {} },
    { name: 'asset, br', path: asset, headers: { 'accept-encoding': br } },
    { name: 'asset, 304', path: asset, headers: { 'accept-encoding': br }, revalidate: true },
  ];
}

interface Row {
  checkout: string;
  run: number;
  case: string;
  perSecond: number;
  p50: number;
  p99: number;
  status: string;
}

async function measure(checkout: string, run: number): Promise<Row[]> {
  const server = await startBuiltServer({}, checkout);
  const rows: Row[] = [];
  try {
    for (const test of await cases(checkout)) {
      // Without accept-encoding, fetch would ask for a compressed copy anyway.
      const headers: Record<string, string> = { 'accept-encoding': 'identity', ...test.headers };
      if (test.revalidate) {
        const first = await fetch(`${server.url}${test.path}`, { headers });
        headers['if-none-match'] = first.headers.get('etag') ?? '';
      }
      // A first request fills the server's caches (compressed copies, page texts).
      await fetch(`${server.url}${test.path}`, { headers });
      const result = await autocannon({
        url: `${server.url}${test.path}`,
        headers,
        connections,
        duration: durationSeconds,
      });
      const statuses = Object.entries(result.statusCodeStats ?? {})
        .map(([code, { count }]) => `${code}×${count}`)
        .join(' ');
      rows.push({
        checkout: path.basename(checkout),
        run,
        case: test.name,
        perSecond: Math.round(result.requests.average),
        p50: result.latency.p50,
        p99: result.latency.p99,
        status: statuses,
      });
    }
  } finally {
    await server.stop();
  }
  return rows;
}

const checkouts = [process.cwd(), ...(compare ? [path.resolve(compare)] : [])];
const rows: Row[] = [];
for (let run = 1; run <= (compare ? 2 : 1); run += 1) {
  for (const checkout of checkouts) rows.push(...(await measure(checkout, run)));
}
console.table(rows);
