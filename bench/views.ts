/**
 * Runs Lighthouse on every view with its default mobile settings (simulated
 * throttling, moto g power emulation) and prints the scores, the main metrics,
 * the bytes sent and the agentic browsing checks. Full reports go to
 * bench-results/ (git-ignored).
 *
 * Beside each view it measures the view's control: the same page as painted
 * on arrival there, with no script at all (scripts/lib/control-page.ts),
 * served the same way, in the same run, each run of a view next to a run of
 * its control, so that the machine's load weighs on both alike. The table
 * then gives what the view costs beyond its control (blocking time,
 * main-thread work, largest paint) and Lighthouse's benchmark index, which
 * tells a slow machine from a heavy page. It keeps each run's trace, and
 * writes Lighthouse's own HTML report of the run that stands for each view.
 *
 * Usage: npm run bench [-- --runs 3] [-- home contact]
 * (builds first; serves on a free port; the medians of `--runs` runs, 3 by default)
 *
 * It reports numbers rather than asserting them, so it exits 0 whatever the
 * scores, and non-zero only when Lighthouse could not audit a page.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse, { generateReport, type Result, type RunnerResult } from 'lighthouse';
import { pageNames } from '../src/content/site.ts';
import {
  againstControl,
  goal,
  median,
  medianRunIndex,
  type AgainstControl,
  type RoundRun,
} from '../scripts/lib/bench-compare.ts';
import { controlPath, prepareBenchSite, warmSite } from '../scripts/lib/bench-site.ts';
import { startBuiltServer, type RunningServer } from '../scripts/lib/built-server.ts';
import { chromiumArgs, chromiumPath } from '../scripts/lib/chromium.ts';
import { tableLines, type Column } from '../scripts/lib/table.ts';

const outDir = 'bench-results';
const categoryIds = [
  'performance',
  'accessibility',
  'best-practices',
  'seo',
  'agentic-browsing',
] as const;

const chromeFlags = [
  ...chromiumArgs,
  '--headless=new',
  // Without it Chromium exposes no WebMCP API, and Lighthouse marks its WebMCP
  // checks "not applicable" instead of checking the booking form's tool.
  '--enable-features=WebMCPTesting',
];

interface ViewResult {
  view: string;
  url: string;
  /** Category scores from 0 to 100; null when an audit in it errored. */
  scores: Record<string, number | null>;
  /** Milliseconds, except CLS (unitless). */
  metrics: { fcp: number; lcp: number; tbt: number; cls: number; mainThread: number };
  /** Lighthouse's CPU benchmark index of the machine during the run: higher is faster. */
  benchmarkIndex: number;
  /** Transfer sizes in bytes, as sent over the network (compressed). */
  bytes: { total: number; javascript: number };
  agentic: { id: string; title: string; result: string; note: string; details: string[] }[];
  /** Audits Lighthouse could not compute, with its error message. */
  errors: string[];
}

/** An audit's measured value (milliseconds, or unitless for layout shift); NaN when Lighthouse has none. */
function numeric(lhr: Result, auditId: string): number {
  return lhr.audits[auditId]?.numericValue ?? Number.NaN;
}

/** Bytes sent for scripts, from the resource summary (one row per resource type). */
function scriptBytes(lhr: Result): number {
  const details = lhr.audits['resource-summary']?.details;
  if (details?.type !== 'table') return Number.NaN;
  const row = details.items.find((item) => item.resourceType === 'script');
  return typeof row?.transferSize === 'number' ? row.transferSize : Number.NaN;
}

/**
 * 'pass' or 'fail' for scored checks; informative and not-applicable ones say
 * so, since a reader would otherwise take their default score of 1 for a pass.
 */
function verdict(audit: Result['audits'][string]): string {
  if (audit.scoreDisplayMode === 'error') return 'error';
  if (audit.scoreDisplayMode === 'notApplicable') return 'n/a';
  if (audit.scoreDisplayMode === 'informative') return 'info';
  if (audit.score === null) return audit.scoreDisplayMode;
  return audit.score >= 0.9 ? 'pass' : 'fail';
}

/** Table rows of an audit's details, including tables nested in a list. */
function detailRows(details: unknown): Record<string, unknown>[] {
  if (!details || typeof details !== 'object') return [];
  const { type, items, value } = details as { type?: string; items?: unknown[]; value?: unknown };
  if (type === 'list-section') return detailRows(value);
  if (type === 'table' || type === 'opportunity') return (items ?? []) as Record<string, unknown>[];
  if (type === 'list') return (items ?? []).flatMap(detailRows);
  return [];
}

/** What an agentic check names: failing rules and elements, tools, file errors. */
function detailNotes(details: unknown): string[] {
  return detailRows(details).map((row) => {
    const node = row.node as { selector?: string } | undefined;
    const text = row.message ?? row.description ?? row.tool ?? '';
    return [text, node?.selector].filter(Boolean).join(' at ');
  });
}

function summarise(view: string, lhr: Result): ViewResult {
  const scores: Record<string, number | null> = {};
  for (const id of categoryIds) {
    const score = lhr.categories[id]?.score;
    scores[id] = score == null ? null : Math.round(score * 100);
  }
  const agentic = (lhr.categories['agentic-browsing']?.auditRefs ?? []).map((ref) => {
    const audit = lhr.audits[ref.id];
    if (!audit) return { id: ref.id, title: '', result: 'missing', note: '', details: [] };
    return {
      id: ref.id,
      title: audit.title,
      result: verdict(audit),
      note: audit.errorMessage ?? audit.explanation ?? audit.displayValue ?? '',
      details: detailNotes(audit.details),
    };
  });
  const errors = Object.values(lhr.audits)
    .filter((audit) => audit.scoreDisplayMode === 'error')
    .map((audit) => `${audit.id}: ${audit.errorMessage}`);
  return {
    view,
    url: lhr.finalDisplayedUrl,
    scores,
    metrics: {
      fcp: numeric(lhr, 'first-contentful-paint'),
      lcp: numeric(lhr, 'largest-contentful-paint'),
      tbt: numeric(lhr, 'total-blocking-time'),
      cls: numeric(lhr, 'cumulative-layout-shift'),
      mainThread: numeric(lhr, 'mainthread-work-breakdown'),
    },
    benchmarkIndex: lhr.environment.benchmarkIndex,
    bytes: { total: numeric(lhr, 'total-byte-weight'), javascript: scriptBytes(lhr) },
    agentic,
    errors,
  };
}

/** A median row of the table: each score, metric and size the median of the runs'. */
function medianResult(runs: ViewResult[]): ViewResult {
  const typical = runs[medianRunIndex(runs, (run) => run.metrics.tbt)]!;
  const of = (value: (run: ViewResult) => number) => median(runs.map(value));
  const scores: Record<string, number | null> = {};
  for (const id of categoryIds) {
    const values = runs.flatMap((run) => (run.scores[id] == null ? [] : [run.scores[id]]));
    scores[id] = values.length > 0 ? median(values) : null;
  }
  return {
    ...typical,
    scores,
    metrics: {
      fcp: of((run) => run.metrics.fcp),
      lcp: of((run) => run.metrics.lcp),
      tbt: of((run) => run.metrics.tbt),
      cls: of((run) => run.metrics.cls),
      mainThread: of((run) => run.metrics.mainThread),
    },
    benchmarkIndex: of((run) => run.benchmarkIndex),
    bytes: { total: of((run) => run.bytes.total), javascript: of((run) => run.bytes.javascript) },
  };
}

const roundRun = ({ result: { metrics, benchmarkIndex }, round }: Measured): RoundRun => ({
  tbt: metrics.tbt,
  mainThread: metrics.mainThread,
  lcp: metrics.lcp,
  benchmarkIndex,
  round,
});

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const milliseconds = (ms: number) => `${Math.round(ms)} ms`;
const signed = (value: number, show: (value: number) => string) =>
  `${value < 0 ? '−' : '+'}${show(Math.abs(value))}`;
const signedWhole = (value: number) => signed(value, (whole) => String(Math.round(whole)));

type TableRow = { label: string; result: ViewResult };

const tableColumns: Column<TableRow>[] = [
  { title: 'view', width: 13, left: true, cell: (row) => row.label },
  ...categoryIds.map((id, index) => ({
    title: ['perf', 'a11y', 'best', 'seo', 'agent'][index]!,
    width: 5,
    cell: (row: TableRow) => row.result.scores[id] ?? '—',
  })),
  { title: 'FCP', width: 7, cell: (row) => seconds(row.result.metrics.fcp) },
  { title: 'LCP', width: 7, cell: (row) => seconds(row.result.metrics.lcp) },
  { title: 'TBT', width: 7, cell: (row) => milliseconds(row.result.metrics.tbt) },
  { title: 'main', width: 7, cell: (row) => seconds(row.result.metrics.mainThread) },
  { title: 'CLS', width: 6, cell: (row) => row.result.metrics.cls.toFixed(3) },
  { title: 'total', width: 9, cell: (row) => kb(row.result.bytes.total) },
  { title: 'JS', width: 9, cell: (row) => kb(row.result.bytes.javascript) },
  { title: 'index', width: 6, cell: (row) => Math.round(row.result.benchmarkIndex) },
];

/** A table with a rule under its titles. */
function printRuledTable<Row>(columns: Column<Row>[], rows: readonly Row[]): void {
  const [titles, ...lines] = tableLines(columns, rows);
  console.log(`${titles}\n${'-'.repeat(titles!.length)}`);
  for (const line of lines) console.log(line);
}

function printTable(rows: TableRow[], runs: number): void {
  console.log('');
  printRuledTable(tableColumns, rows);
  console.log(
    `Medians of ${runs} run${runs === 1 ? '' : 's'}. main: main-thread work; index: Lighthouse's CPU benchmark` +
      ' index (higher is a faster machine). Sizes are bytes transferred (compressed).' +
      ' agent: share of scored agentic checks passed. control: the view above it without any' +
      ' script (performance only).',
  );
}

type Comparison = [string, AgainstControl];

const comparisonColumns: Column<Comparison>[] = [
  { title: 'view', width: 13, left: true, cell: ([view]) => view },
  { title: 'TBT−ctrl', width: 9, cell: ([, against]) => signed(against.tbtMs, milliseconds) },
  { title: 'main−ctrl', width: 10, cell: ([, against]) => signed(against.mainThreadMs, seconds) },
  {
    title: 'main×ctrl',
    width: 10,
    cell: ([, against]) => `${against.mainThreadRatio.toFixed(2)}×`,
  },
  { title: 'LCP−ctrl', width: 9, cell: ([, against]) => signed(against.lcpMs, seconds) },
  {
    title: 'index view/ctrl',
    width: 16,
    cell: ([, { page, control }]) =>
      `${Math.round(page.benchmarkIndex)} / ${Math.round(control.benchmarkIndex)}`,
  },
  { title: 'goal', width: 5, cell: ([, against]) => (against.meetsGoal ? 'yes' : 'no') },
  {
    title: '  TBT−ctrl by round',
    width: 19,
    left: true,
    cell: ([, against]) => `  ${against.tbtByRoundMs.map(signedWhole).join(' ')}`,
  },
  {
    title: ' ctrl TBT spread',
    width: 16,
    cell: ([, against]) => milliseconds(against.controlTbtSpreadMs),
  },
];

function printAgainstControl(comparisons: Comparison[]): void {
  if (comparisons.length === 0) return;
  console.log(`\nEach view against its control (medians, measured side by side)`);
  printRuledTable(comparisonColumns, comparisons);
  console.log(
    `goal: TBT at most ${goal.tbtAboveControlMs} ms above the control's and main-thread work at most` +
      ` ${goal.mainThreadTimesControl}× the control's. A low index with large differences is a slow machine;` +
      ' large differences at any index are the page. By round (ms): each side-by-side pair on its own;' +
      " a control's spread as large as the margin means one run cannot tell the page from the machine.",
  );
}

function printAgentic(results: ViewResult[]): void {
  console.log('\nAgentic browsing checks');
  console.log(
    '(n/a: nothing to check, e.g. no /llms.txt, no form or no WebMCP tool; info: not scored)',
  );
  for (const result of results) {
    const scored = result.agentic.filter((check) => ['pass', 'fail'].includes(check.result));
    const passed = scored.filter((check) => check.result === 'pass').length;
    console.log(`\n  ${result.view}: ${passed}/${scored.length} scored checks pass`);
    for (const check of result.agentic) {
      const note = check.note ? ` — ${check.note}` : '';
      console.log(`    ${check.result.padEnd(5)} ${check.id}${note}`);
      for (const detail of check.details) console.log(`            ${detail}`);
    }
  }
}

/**
 * One Lighthouse run, tried once more when Lighthouse itself failed to record
 * the page load (now and then it misses the trace's start: NO_NAVSTART).
 */
async function audit(url: string, port: number, onlyCategories?: string[]): Promise<RunnerResult> {
  for (let attempt = 1; ; attempt++) {
    const run = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories });
    if (!run) throw new Error('Lighthouse returned no result');
    if (!run.lhr.runtimeError || attempt === 2) return run;
    console.warn(`  Lighthouse failed (${run.lhr.runtimeError.code}); once more`);
  }
}

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  if (index < 0) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} takes a whole number from 1`);
  return value;
}

type Kind = 'view' | 'control';

/** One Lighthouse run of a view or of its control. */
interface Measured {
  view: string;
  kind: Kind;
  round: number;
  result: ViewResult;
  lhr: Result;
  /** Relative to outDir. */
  report: string;
  trace: string;
}

const runs = option('--runs', 3);
// `npm run bench -- home contact` measures only those views.
const requested = process.argv
  .slice(2)
  .filter((text, index, all) => !text.startsWith('--') && all[index - 1] !== '--runs');
const views = pageNames.filter((name) => requested.length === 0 || requested.includes(name));
const measured: Measured[] = [];
const runsOf = (view: string, kind: Kind) =>
  measured.filter((run) => run.view === view && run.kind === kind);
const failures: string[] = [];
const siteDir = join(outDir, 'site');
const gzipAsync = promisify(gzip);

let server: RunningServer | undefined;
let chrome: LaunchedChrome | undefined;
/** The views measured against a control (those pre-rendered). */
const controlled: string[] = [];

async function measure(view: string, kind: Kind, round: number, url: string): Promise<void> {
  const name = kind === 'view' ? view : `control-${view}`;
  try {
    const run = await audit(url, chrome!.port, kind === 'control' ? ['performance'] : undefined);
    const report = join('runs', `lighthouse-${name}-${round}.json`);
    await writeFile(join(outDir, report), String(run.report));
    if (run.lhr.runtimeError) throw new Error(run.lhr.runtimeError.message);
    for (const warning of run.lhr.runWarnings) console.warn(`  warning: ${warning}`);
    const trace = join('traces', `${name}-${round}.trace.json.gz`);
    await writeFile(join(outDir, trace), await gzipAsync(JSON.stringify(run.artifacts.Trace)));
    const result = summarise(view, run.lhr);
    measured.push({ view, kind, round, result, lhr: run.lhr, report, trace });
    const { metrics } = result;
    console.log(
      `  round ${round}/${runs} ${name.padEnd(22)} TBT ${milliseconds(metrics.tbt).padStart(7)}` +
        `  main ${seconds(metrics.mainThread)}  LCP ${seconds(metrics.lcp)}` +
        `  index ${Math.round(result.benchmarkIndex)}`,
    );
  } catch (error) {
    failures.push(`${name} (round ${round})`);
    console.error(`  Lighthouse failed on ${url}: ${(error as Error).message}`);
  }
}

try {
  for (const dir of ['runs', 'traces'])
    await rm(join(outDir, dir), { recursive: true, force: true });
  for (const dir of ['runs', 'traces']) await mkdir(join(outDir, dir), { recursive: true });
  controlled.push(...(await prepareBenchSite('dist', siteDir, views)));
  server = await startBuiltServer({ DIST_DIR: siteDir });
  await warmSite(server, siteDir);
  chrome = await launch({ chromePath: chromiumPath, chromeFlags, logLevel: 'silent' });
  const urls = (view: string) => ({
    // Each URL is loaded fresh, so a fragment view is put in place after load.
    view: view === 'home' ? `${server!.url}/` : `${server!.url}/#${view}`,
    control: `${server!.url}${controlPath(view)}`,
  });

  // The first load of a fresh browser is slower than the rest: it is not counted.
  await audit(urls('home').view, chrome.port, ['performance']);
  for (let round = 1; round <= runs; round++) {
    for (const view of views) {
      if (round === 1) console.log(`Lighthouse: ${urls(view).view} and ${urls(view).control}`);
      const kinds: Kind[] = controlled.includes(view) ? ['view', 'control'] : ['view'];
      // Every other round the control goes first, so neither always has the warmer machine.
      if (round % 2 === 0) kinds.reverse();
      for (const kind of kinds) await measure(view, kind, round, urls(view)[kind]);
    }
  }

  const typicalRun = (view: string, kind: Kind) => {
    const found = runsOf(view, kind);
    return found[medianRunIndex(found, (run) => run.result.metrics.tbt)];
  };
  const measuredViews = views.filter((view) => runsOf(view, 'view').length > 0);
  const results = measuredViews.map((view) =>
    medianResult(runsOf(view, 'view').map((run) => run.result)),
  );
  const rows: TableRow[] = [];
  const comparisons: Comparison[] = [];
  for (const [index, view] of measuredViews.entries()) {
    rows.push({ label: view, result: results[index]! });
    const controls = runsOf(view, 'control');
    if (controls.length === 0) continue;
    rows.push({ label: '  control', result: medianResult(controls.map((run) => run.result)) });
    comparisons.push([
      view,
      againstControl(runsOf(view, 'view').map(roundRun), controls.map(roundRun)),
    ]);
  }

  printTable(rows, runs);
  printAgainstControl(comparisons);
  const indexes = measured.map((run) => run.result.benchmarkIndex);
  if (indexes.length > 0)
    console.log(
      `Benchmark index over the ${indexes.length} runs: median ${Math.round(median(indexes))}` +
        ` (${Math.round(Math.min(...indexes))}–${Math.round(Math.max(...indexes))}).`,
    );

  // A run far slower than the rest says more about the machine than about the page.
  const slow = measured.filter((run) => run.result.benchmarkIndex < median(indexes) / 2);
  if (slow.length > 0)
    console.log(
      `Runs on a machine at under half the median index: ${slow
        .map(
          (run) =>
            `${run.kind === 'view' ? run.view : `${run.view} control`} round ${run.round} (${Math.round(run.result.benchmarkIndex)})`,
        )
        .join(', ')}.`,
    );

  printAgentic(results);
  // The run with the median TBT stands for the view: its report as JSON, and
  // as Lighthouse's HTML page, which lists every audit below full marks.
  const reports = measuredViews.map((view) => typicalRun(view, 'view')!.lhr);
  for (const [index, view] of measuredViews.entries()) {
    const lhr = reports[index]!;
    await writeFile(join(outDir, `lighthouse-${view}.json`), JSON.stringify(lhr, null, 2));
    await writeFile(join(outDir, `lighthouse-${view}.html`), generateReport(lhr, 'html'));
  }
  // Lighthouse 13 wants Node 22.19 or later; on older Node some insights fail
  // (they carry no weight in the scores, but their advice is missing).
  const errors = new Set(results.flatMap((result) => result.errors));
  if (errors.size > 0) {
    console.log(`\nAudits Lighthouse could not compute (Node ${process.version}):`);
    for (const error of errors) console.log(`  ${error}`);
  }
  await writeFile(
    join(outDir, 'summary.json'),
    `${JSON.stringify(
      {
        lighthouse: reports[0]?.lighthouseVersion,
        runs,
        results,
        againstControl: Object.fromEntries(comparisons),
        everyRun: measured.map(({ view, kind, round, result, report, trace }) => ({
          view,
          kind,
          round,
          metrics: result.metrics,
          benchmarkIndex: result.benchmarkIndex,
          performance: result.scores.performance,
          report,
          trace,
        })),
        failures,
      },
      null,
      2,
    )}\n`,
  );
  console.log(
    `\nReports written to ${outDir}/: lighthouse-<view>.html, every audit of the run that stands` +
      " for the view; every run's report in runs/, its trace in traces/ (Chromium DevTools'" +
      ' Performance panel opens one, with its long tasks)',
  );
} finally {
  chrome?.kill();
  await server?.stop();
}

// A run that failed is reported above; only a page with no run at all fails the bench.
const unmeasured = [
  ...views.filter((view) => runsOf(view, 'view').length === 0),
  ...controlled
    .filter((view) => runsOf(view, 'control').length === 0)
    .map((view) => `control-${view}`),
];
if (failures.length > 0) console.error(`Lighthouse failed on: ${failures.join(', ')}`);
if (unmeasured.length > 0) {
  console.error(`Lighthouse could not audit: ${unmeasured.join(', ')}`);
  process.exitCode = 1;
}
