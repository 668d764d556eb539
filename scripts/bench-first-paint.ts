/**
 * Measures each first-paint mechanism of the built page by taking it away:
 * Lighthouse (mobile defaults) on the page as built and on a copy of dist/
 * without that one mechanism, several runs each, with throttling applied in
 * the browser (`devtools`: latency, bandwidth and CPU slowed down for real)
 * and simulated from an unthrottled load (`simulate`, Lighthouse's default).
 * Prints the medians with their spread, and writes every run and a Markdown
 * summary to bench-results/first-paint/ (git-ignored).
 *
 * Usage: npm run bench:first-paint -- [--runs 5] [--methods devtools,simulate]
 *          [deferred-start] [fetched-views] [fallback-faces]
 * (builds first; without mechanism ids, all three). The copies are served by
 * the project's server, one process each, and measured in turn within each
 * round, so that the machine's load weighs on all of them alike.
 *
 * Every copy's Content-Security-Policy <meta> is recomputed for its inline
 * script and style (the project's server repeats it as a header).
 */
import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { startBuiltServer, type RunningServer } from './lib/built-server.ts';
import { chromiumArgs, chromiumPath } from './lib/chromium.ts';
import { numeric } from './lib/lighthouse-results.ts';
import { bootManifestIn } from '../src/boot/protocol.ts';
import {
  withoutDeferredStart,
  withoutFallbackFaces,
  withoutFallbackFacesInlined,
  withoutFetchedViews,
  withPolicyHashes,
} from './lib/first-paint-variants.ts';

const outDir = 'bench-results/first-paint';
const methods = ['devtools', 'simulate'] as const;
type Method = (typeof methods)[number];

/** The built site, as the variants need it. */
interface Built {
  html: string;
  /** The built web fonts' style sheet(s). */
  webFontsCss: string;
}

interface Variant {
  name: string;
  /** What the page does instead. */
  label: string;
  make: (built: Built) => string;
}

interface Mechanism {
  id: string;
  title: string;
  /** The views where it matters: '' is home, else the fragment. */
  views: string[];
  without: Variant[];
}

const mechanisms: Mechanism[] = [
  {
    id: 'deferred-start',
    title: 'The main script started after the first paint',
    views: ['', 'benefits'],
    without: [
      {
        name: 'no-deferred-start',
        label: 'the module script in the head',
        make: ({ html }) => withoutDeferredStart(html),
      },
    ],
  },
  {
    id: 'fetched-views',
    title: 'The fetched view files',
    views: ['benefits'],
    without: [
      {
        name: 'no-fetched-views',
        label: 'view rendered by the main script, its chunks module-preloaded',
        make: ({ html }) => withoutFetchedViews(html),
      },
    ],
  },
  {
    id: 'fallback-faces',
    title: 'One fallback face per local font',
    views: [''],
    without: [
      {
        name: 'no-fallback-faces',
        label: "no fallback faces, the web fonts' style sheet linked in the head",
        make: ({ html }) => withoutFallbackFaces(html),
      },
      {
        name: 'no-fallback-faces-inlined',
        label: "no fallback faces, the web fonts' @font-face rules in the inlined style",
        make: ({ html, webFontsCss }) => withoutFallbackFacesInlined(html, webFontsCss),
      },
    ],
  },
];

interface Run {
  variant: string;
  view: string;
  method: Method;
  round: number;
  fcp: number;
  lcp: number;
  cls: number;
  tbt: number;
  score: number;
  benchmarkIndex: number;
}

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

/** Every file of a site once, so that no run waits for the server's first compression. */
async function warm(server: RunningServer, dir: string): Promise<void> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => `/${relative(dir, join(entry.parentPath, entry.name))}`);
  for (const file of ['/', ...files])
    for (const encoding of ['gzip, deflate', 'gzip, deflate, br, zstd'])
      await (
        await fetch(`${server.url}${file}`, { headers: { 'accept-encoding': encoding } })
      )
        .arrayBuffer()
        .catch(() => undefined);
}

/** One Lighthouse run, tried again (up to three times) when it failed to record the load. */
async function lighthouseRun(url: string, port: number, method: Method): Promise<Result> {
  for (let attempt = 1; ; attempt++) {
    const run = await lighthouse(url, {
      port,
      logLevel: 'error',
      onlyCategories: ['performance'],
      throttlingMethod: method,
    });
    if (!run) throw new Error('Lighthouse returned no result');
    if (!run.lhr.runtimeError) return run.lhr;
    if (attempt === 3) throw new Error(run.lhr.runtimeError.message);
    console.warn(`  Lighthouse failed (${run.lhr.runtimeError.code}); once more`);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? NaN)
    : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

const seconds = (ms: number) => (ms / 1000).toFixed(2);
const format = {
  fcp: seconds,
  lcp: seconds,
  cls: (value: number) => value.toFixed(3),
  score: (value: number) => String(Math.round(value)),
};
type Metric = keyof typeof format;

/** "median (min–max)" of one metric over runs. */
function spread(runs: Run[], metric: Metric): string {
  const values = runs.map((run) => run[metric]);
  const show = format[metric];
  return `${show(median(values))} (${show(Math.min(...values))}–${show(Math.max(...values))})`;
}

/** How much the mechanism saves: (without − with) / without, in %. */
function gain(withIt: Run[], without: Run[], metric: 'fcp' | 'lcp'): string {
  const a = median(withIt.map((run) => run[metric]));
  const b = median(without.map((run) => run[metric]));
  const percent = ((b - a) / b) * 100;
  return `${percent >= 0 ? '+' : '−'}${Math.abs(percent).toFixed(1)} %`;
}

function summaryMarkdown(runs: Run[], chosen: Mechanism[]): string {
  const lines: string[] = [];
  const pick = (variant: string, view: string, method: Method) =>
    runs.filter((run) => run.variant === variant && run.view === view && run.method === method);
  for (const mechanism of chosen) {
    lines.push(`### ${mechanism.title}`, '');
    lines.push(
      '| view | throttling | page | FCP s | LCP s | CLS | score | FCP gain | LCP gain |',
      '| ---- | ---------- | ---- | ----- | ----- | --- | ----- | -------- | -------- |',
    );
    for (const view of mechanism.views) {
      for (const method of methods) {
        const base = pick('baseline', view, method);
        if (base.length === 0) continue;
        const row = (label: string, set: Run[], gains: string[]) =>
          `| ${view ? `/#${view}` : 'home'} | ${method} | ${label} | ${spread(set, 'fcp')} | ${spread(set, 'lcp')} | ${spread(set, 'cls')} | ${spread(set, 'score')} | ${gains.join(' | ')} |`;
        lines.push(row('with (as built)', base, ['', '']));
        for (const variant of mechanism.without) {
          const set = pick(variant.name, view, method);
          if (set.length === 0) continue;
          lines.push(
            row(`without: ${variant.label}`, set, [gain(base, set, 'fcp'), gain(base, set, 'lcp')]),
          );
        }
      }
    }
    lines.push('');
  }
  lines.push(
    'Medians of the runs, (min–max) after them. Gain: what the mechanism saves, (without − with) / without.',
  );
  return lines.join('\n');
}

const runsWanted = Number(argument('--runs') ?? 5);
const methodsWanted = methods.filter((method) =>
  (argument('--methods') ?? methods.join(',')).split(',').includes(method),
);
const requested = process.argv.slice(2).filter((text) => mechanisms.some((m) => m.id === text));
const chosen =
  requested.length > 0 ? mechanisms.filter((m) => requested.includes(m.id)) : mechanisms;

const baseHtml = await readFile('dist/index.html', 'utf8');
const boot = bootManifestIn(baseHtml);
const built: Built = {
  html: baseHtml,
  webFontsCss: (
    await Promise.all(
      boot.afterFirstPaint.stylesheets.map((file) => readFile(join('dist', file), 'utf8')),
    )
  ).join('\n'),
};

const variants: Variant[] = [
  { name: 'baseline', label: 'as built', make: ({ html }) => html },
  ...chosen.flatMap((mechanism) => mechanism.without),
];
const plan: { variant: string; view: string; method: Method }[] = [];
for (const method of methodsWanted) {
  const baseViews = new Set(chosen.flatMap((mechanism) => mechanism.views));
  for (const view of baseViews) plan.push({ variant: 'baseline', view, method });
  for (const mechanism of chosen)
    for (const variant of mechanism.without)
      for (const view of mechanism.views) plan.push({ variant: variant.name, view, method });
}

await rm(outDir, { recursive: true, force: true });
await mkdir(join(outDir, 'reports'), { recursive: true });
const servers = new Map<string, RunningServer>();
const runs: Run[] = [];
let chrome: LaunchedChrome | undefined;
let lighthouseVersion = '';
let userAgent = '';

try {
  for (const variant of variants) {
    const dir = join(outDir, 'sites', variant.name);
    await cp('dist', dir, { recursive: true });
    const html = withPolicyHashes(variant.make(built));
    if (variant.name !== 'baseline' && html === withPolicyHashes(baseHtml))
      console.log(`${variant.name}: the same page as built (nothing to take away)`);
    await writeFile(join(dir, 'index.html'), html);
    const server = await startBuiltServer({ DIST_DIR: dir });
    servers.set(variant.name, server);
    await warm(server, dir);
    console.log(`${variant.name}: ${server.url}/ (${variant.label})`);
  }

  const chromeFlags = [...chromiumArgs, '--headless=new'];
  for (let round = 0; round <= runsWanted; round++) {
    chrome = await launch({ chromePath: chromiumPath, chromeFlags, logLevel: 'silent' });
    // Round 0 warms Chromium and Lighthouse up and is not counted.
    const steps = round === 0 ? plan.filter((step) => step.variant === 'baseline') : plan;
    // Each round starts one step further along, so no variant always runs first.
    const shift = round % steps.length;
    const order = [...steps.slice(shift), ...steps.slice(0, shift)];
    for (const step of order) {
      const server = servers.get(step.variant);
      if (!server) continue;
      const url = `${server.url}/${step.view ? `#${step.view}` : ''}`;
      const lhr = await lighthouseRun(url, chrome.port, step.method).catch((error: Error) => {
        console.error(`  Lighthouse could not measure ${url} (${step.method}): ${error.message}`);
        return undefined;
      });
      if (round === 0 || !lhr) continue;
      lighthouseVersion = lhr.lighthouseVersion;
      userAgent = lhr.environment.hostUserAgent;
      const run: Run = {
        ...step,
        round,
        fcp: numeric(lhr, 'first-contentful-paint'),
        lcp: numeric(lhr, 'largest-contentful-paint'),
        cls: numeric(lhr, 'cumulative-layout-shift'),
        tbt: numeric(lhr, 'total-blocking-time'),
        score: (lhr.categories.performance?.score ?? Number.NaN) * 100,
        benchmarkIndex: lhr.environment.benchmarkIndex,
      };
      runs.push(run);
      const name = `${step.variant}-${step.view || 'home'}-${step.method}-${round}`;
      await writeFile(join(outDir, 'reports', `${name}.json`), JSON.stringify(lhr));
      console.log(
        `round ${round}/${runsWanted} ${step.variant.padEnd(26)} ${(step.view || 'home').padEnd(9)} ${step.method.padEnd(8)}` +
          ` FCP ${seconds(run.fcp)} LCP ${seconds(run.lcp)} CLS ${run.cls.toFixed(3)} score ${Math.round(run.score)} (benchmark ${Math.round(run.benchmarkIndex)})`,
      );
      await writeFile(
        join(outDir, 'runs.json'),
        `${JSON.stringify({ lighthouseVersion, userAgent, runs }, null, 2)}\n`,
      );
    }
    chrome.kill();
    chrome = undefined;
  }

  const markdown = summaryMarkdown(runs, chosen);
  await writeFile(join(outDir, 'summary.md'), `${markdown}\n`);
  console.log(
    `\nLighthouse ${lighthouseVersion}, ${userAgent}, ${runsWanted} runs each\n\n${markdown}`,
  );
  console.log(`\nEvery run in ${outDir}/runs.json, the reports in ${outDir}/reports/`);
} finally {
  chrome?.kill();
  for (const server of servers.values()) await server.stop();
}
