/**
 * What a flood costs, during which every booking needs a proof of work
 * (supabase/migrations/20261201000100_limits.sql):
 *
 * Both are measured with the hour's count at 1x and at 4x the threshold
 * (`--threshold`, 100), since the proof's difficulty rises with the count.
 *
 * - a visitor: the time the booking form's solver (src/booking/proof-of-work-solver.ts,
 *   in Web Workers) takes in Chromium on challenges the server issues, with
 *   DevTools' 4x CPU slowdown. Chromium slows only the page's main thread: it
 *   refuses to throttle a worker ("only supported for pages"), so the figure
 *   that stands for a 4x slower phone is the workers' time times 4;
 * - a flooder: the CPU time per accepted request of a Node client that fetches
 *   a challenge, solves it with node:crypto's native SHA-256 and sends the
 *   booking with its proof.
 *
 * - the practice: the e-mails a flood of `--flood-minutes` (10) brings, with
 *   the default limits, through a trusted proxy on loopback, from a new network
 *   every 2 seconds, each sending as many requests as its limit lets it,
 *   solving every proof; counted until the flood has ended and the next digest
 *   is due (16 minutes for a 10-minute flood), after which no more come.
 *   `--flood-minutes 0` skips it.
 *
 * Usage: npm run bench:flood
 *        npm run bench:flood -- --solves 15 --max-numbers 10000,30000,100000 --requests 50 --threshold 100
 * --max-numbers also times challenges made here for other difficulties, at 1x
 * (the server's own are always timed).
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { chromium, type Page } from '@playwright/test';
import {
  bookingProofHeader,
  encodeBookingProof,
} from '../supabase/functions/_shared/core/booking-proof.ts';
import { solveBookingChallenge, type BookingChallenge } from '../server/testing/booking-proof.ts';
import { floodDigestIntervalMs } from '../supabase/functions/_shared/notifications/flood-digest.ts';
import { practiceMailKind, sendFloodRequest } from '../server/testing/flood.ts';
import { startSmtpPeer } from '../server/testing/notification-peers.ts';
import { postBooking as postSampleBooking } from '../server/testing/booking-samples.ts';
import { anonJsonHeaders } from '../server/testing/helpers.ts';
import { everyLimitLifted } from '../server/limits/limits-config.ts';
import { chromiumArgs, chromiumPath } from './lib/chromium.ts';
import { startBuiltServer } from './lib/built-server.ts';
import { argument } from './lib/bench-options.ts';
import { median } from './lib/bench-compare.ts';

const solves = Number(argument('--solves') ?? 7);
const requests = Number(argument('--requests') ?? 30);
const floodMinutes = Number(argument('--flood-minutes') ?? 10);
const extraMaxNumbers = (argument('--max-numbers') ?? '').split(',').filter(Boolean).map(Number);
/** Requests in the hour above which every booking needs a proof (BOOKING_LIMIT_SITE_PER_HOUR). */
const threshold = Number(argument('--threshold') ?? 100);
/** The hour's count at which the proof's cost is measured, as multiples of the threshold. */
const thresholdMultiples = [1, 4];
/** DevTools' slowdown, Lighthouse's model of a mid-range phone. */
const cpuSlowdown = 4;

async function fetchChallenge(api: string): Promise<BookingChallenge> {
  const response = await fetch(`${api}/rpc/booking_challenge`, {
    method: 'POST',
    headers: anonJsonHeaders,
    body: '{}',
  });
  if (response.status !== 200) throw new Error(`rpc/booking_challenge answered ${response.status}`);
  return (await response.json()) as BookingChallenge;
}

/** A challenge made as the database makes them, for a difficulty other than the server's. */
function localChallenge(maxnumber: number): BookingChallenge {
  const salt = `${randomBytes(12).toString('hex')}?expires=${Math.floor(Date.now() / 1000) + 600}&`;
  const secret = randomInt(maxnumber + 1);
  const challenge = createHash('sha256').update(`${salt}${secret}`).digest('hex');
  return { algorithm: 'SHA-256', challenge, maxnumber, salt, signature: '' };
}

/** A booking with an id and an e-mail address of its own, and its proof of work if given. */
function postBooking(index: number, proof?: string) {
  return postSampleBooking(
    server.url,
    { id: crypto.randomUUID(), email: `flood-${index}@example.com` },
    proof ? { headers: { ...anonJsonHeaders, [bookingProofHeader]: proof } } : {},
  );
}

/** Milliseconds the form's own solver takes for `challenge` in the page. */
async function solveInPage(page: Page, solverPath: string, challenge: BookingChallenge) {
  return page.evaluate(
    async ({ solverPath, challenge }) => {
      const { solveBookingChallenge } = (await import(solverPath)) as {
        solveBookingChallenge: (challenge: unknown, timeoutMs: number) => Promise<number>;
      };
      const start = performance.now();
      await solveBookingChallenge(challenge, 120_000);
      return performance.now() - start;
    },
    { solverPath, challenge },
  );
}

const solverFile = readdirSync('dist/assets').find((name) =>
  /^proof-of-work-solver-.+\.js$/.test(name),
);
if (!solverFile) throw new Error('No proof-of-work solver in dist/assets: run `npm run build`.');

// Every limit lifted but the site's hourly threshold, which asks for the proof.
const server = await startBuiltServer({
  ...everyLimitLifted,
  BOOKING_LIMIT_SITE_PER_HOUR: String(threshold),
});
const api = `${server.url}/rest/v1`;
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
try {
  const page = await browser.newPage();
  await page.goto(`${server.url}/`);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  // One solve to warm up (the worker's file, WebCrypto).
  await solveInPage(page, `/assets/${solverFile}`, localChallenge(1000));
  console.log(
    `\nThe booking form's solver in Chromium, ${solves} solves each, DevTools CPU slowdown ${cpuSlowdown}x on the page, ` +
      `navigator.hardwareConcurrency ${cores}; a flooder in Node (node:crypto SHA-256), ${requests} bookings one after another. ` +
      `Threshold: ${threshold} requests in the hour.`,
  );

  let stored = 0;
  for (const multiple of thresholdMultiples) {
    // The hour's count at `multiple` times the threshold; the first `threshold`
    // need no proof, the rest are solved as the flooder solves them.
    for (; stored < multiple * threshold; stored += 1) {
      const response = await (stored < threshold ? postBooking(stored) : solveAndPost(api, stored));
      if (response.status !== 201)
        throw new Error(`Filling the hour: booking ${stored} answered ${response.status}`);
    }
    const serverMaxNumber = (await fetchChallenge(api)).maxnumber;
    console.log(`\nAt ${multiple}x the threshold (${stored} requests in the hour)`);
    const extra = multiple === 1 ? extraMaxNumbers.filter((n) => n !== serverMaxNumber) : [];
    await timeVisitor(page, serverMaxNumber, extra);
    stored += await timeFlooder(serverMaxNumber, stored);
  }
} finally {
  await browser.close();
  await server.stop();
}

/** Solves the server's next challenge in Node and sends a booking with the proof. */
async function solveAndPost(api: string, index: number) {
  const challenge = await fetchChallenge(api);
  return postBooking(index, encodeBookingProof(challenge, solveBookingChallenge(challenge)));
}

/** The form's solver in Chromium on the server's challenges, and on ones made here for `extra`. */
async function timeVisitor(page: Page, serverMaxNumber: number, extra: readonly number[]) {
  console.log(
    'maxnumber   source        median ms (measured)   median ms x4 (phone)   slowest x4   hashes/s, all workers',
  );
  for (const maxnumber of [serverMaxNumber, ...extra]) {
    const times: number[] = [];
    for (let run = 0; run < solves; run += 1) {
      const challenge =
        maxnumber === serverMaxNumber ? await fetchChallenge(api) : localChallenge(maxnumber);
      times.push(await solveInPage(page, `/assets/${solverFile}`, challenge));
    }
    const measured = median(times);
    // On average half of the numbers are tried before the secret one.
    const hashesPerSecond = maxnumber / 2 / (measured / 1000);
    console.log(
      [
        String(maxnumber).padEnd(11),
        (maxnumber === serverMaxNumber ? 'server' : 'made here').padEnd(13),
        String(Math.round(measured)).padStart(20),
        String(Math.round(measured * cpuSlowdown)).padStart(22),
        String(Math.round(Math.max(...times) * cpuSlowdown)).padStart(12),
        String(Math.round(hashesPerSecond)).padStart(20),
      ].join(' '),
    );
  }
}

/** The flooder's CPU per stored request over `requests` bookings; returns how many were stored. */
async function timeFlooder(serverMaxNumber: number, firstIndex: number): Promise<number> {
  let accepted = 0;
  let solvingMicros = 0;
  let hardest = serverMaxNumber;
  const started = process.cpuUsage();
  const startedAt = performance.now();
  for (let index = 0; index < requests; index += 1) {
    const challenge = await fetchChallenge(api);
    hardest = Math.max(hardest, challenge.maxnumber);
    const solveStarted = process.cpuUsage();
    const number = solveBookingChallenge(challenge);
    const solveCost = process.cpuUsage(solveStarted);
    solvingMicros += solveCost.user + solveCost.system;
    const response = await postBooking(firstIndex + index, encodeBookingProof(challenge, number));
    if (response.status === 201) accepted += 1;
  }
  const cost = process.cpuUsage(started);
  const elapsedMs = performance.now() - startedAt;
  const cpuMsPerAccepted = (cost.user + cost.system) / 1000 / accepted;
  console.log(`flooder, maxnumber ${serverMaxNumber}–${hardest} as the hour's count rose`);
  console.log(`  accepted                         ${accepted} of ${requests}`);
  console.log(`  flooder CPU per stored request   ${cpuMsPerAccepted.toFixed(1)} ms`);
  console.log(
    `    of which solving               ${(solvingMicros / 1000 / accepted).toFixed(1)} ms`,
  );
  console.log(
    `  wall time per stored request     ${(elapsedMs / accepted).toFixed(1)} ms (with the server's work)`,
  );
  console.log(
    `  one core of the flooder's        ${Math.round(3_600_000 / cpuMsPerAccepted)} stored requests an hour`,
  );
  return accepted;
}

if (floodMinutes > 0) await measureInbox(floodMinutes);

/** The e-mails the practice receives during and after a flood of `minutes`. */
async function measureInbox(minutes: number) {
  const inbox = await startSmtpPeer();
  const threshold = 20;
  const flooded = await startBuiltServer({
    TRUST_PROXY: 'loopback',
    SMTP_URL: `smtp://127.0.0.1:${inbox.port}`,
    NOTIFY_TO: 'practice@example.com',
    NOTIFY_FROM: 'bookings@example.com',
    NOTIFY_DAILY_SUMMARY_AT: 'off',
    BOOKING_LIMIT_SITE_PER_HOUR: String(threshold),
  });
  const startedAt = Date.now();
  const floodEnds = startedAt + minutes * 60_000;
  // Counted until the digest after the flood's end is due, and a minute more.
  const watchEnds = startedAt + Math.max(minutes * 60_000, floodDigestIntervalMs) + 60_000;
  let accepted = 0;
  let sent = 0;
  try {
    for (let network = 0; Date.now() < floodEnds; network += 1) {
      const client = `10.${(network >> 16) & 255}.${(network >> 8) & 255}.${network & 255}`;
      const nextNetworkAt = Date.now() + 2_000;
      for (let index = 0; ; index += 1) {
        sent += 1;
        const status = await sendFloodRequest(
          flooded.url,
          client,
          `flood-${client}-${index}@example.com`,
        );
        if (status !== 201) break;
        accepted += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, nextNetworkAt - Date.now())));
    }
    console.log(
      `\nA ${minutes}-minute flood through a trusted proxy: ${sent} requests sent, ${accepted} stored; e-mails counted for ${Math.round((watchEnds - startedAt) / 60_000)} minutes`,
    );
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, watchEnds - Date.now())));
    const kinds = inbox.mails.map((mail) => practiceMailKind(mail, threshold));
    const count = (kind: string) => kinds.filter((each) => each === kind).length;
    console.log(`e-mails to the practice          ${kinds.length} in the hour`);
    console.log(`  one per request (threshold)    ${count('booking')}`);
    console.log(`  digests                        ${count('digest')}`);
    console.log(`  flood alerts                   ${count('alert')}`);
  } finally {
    await flooded.stop();
    await inbox.close();
  }
}
