/**
 * Runs Lighthouse on every view with its default mobile settings (simulated
 * throttling, moto g power emulation) and prints the scores, the main metrics,
 * the bytes sent and the agentic browsing checks. Full reports go to
 * bench-results/ (git-ignored).
 * Usage: npm run bench   (builds first; serves on a free port)
 *
 * It reports numbers rather than asserting them, so it exits 0 whatever the
 * scores, and non-zero only when Lighthouse could not audit a page.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { pageNames } from '../src/content/site.ts';
import { startBuiltServer, type RunningServer } from './lib/built-server.ts';
import { chromiumArgs, chromiumPath } from './lib/chromium.ts';
import { numeric } from './lib/lighthouse-results.ts';

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
  metrics: { fcp: number; lcp: number; tbt: number; cls: number };
  /** Transfer sizes in bytes, as sent over the network (compressed). */
  bytes: { total: number; javascript: number };
  agentic: { id: string; title: string; result: string; note: string; details: string[] }[];
  /** Audits Lighthouse could not compute, with its error message. */
  errors: string[];
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
    },
    bytes: { total: numeric(lhr, 'total-byte-weight'), javascript: scriptBytes(lhr) },
    agentic,
    errors,
  };
}

/** Audits whose values the table already shows. */
const tabled = new Set([
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
]);

/** The URLs (without the origin) and elements an audit's details name. */
function namedItems(details: unknown): string[] {
  return detailRows(details).flatMap((row) => {
    const node = row.node as { selector?: string } | undefined;
    if (typeof row.url === 'string') return [row.url.replace(/^https?:\/\/[^/]+/, '')];
    return node?.selector ? [node.selector] : [];
  });
}

interface Shortfall {
  /** Each view that falls short, with its score and Lighthouse's summary. */
  views: string[];
  /** What the audit blames, across all views. */
  items: Set<string>;
}

/**
 * Scored audits below full marks: the to-do list behind every score under 100
 * (the JSON reports have the full details).
 */
function shortfalls(reports: [string, Result][]): Map<string, Shortfall> {
  const found = new Map<string, Shortfall>();
  for (const [view, lhr] of reports) {
    for (const audit of Object.values(lhr.audits)) {
      if (audit.score === null || audit.score >= 1 || tabled.has(audit.id)) continue;
      // Informative and manual audits carry a score of 1 or none; only these count.
      if (!['binary', 'numeric', 'metricSavings'].includes(audit.scoreDisplayMode)) continue;
      const key = `${audit.id} — ${audit.title}`;
      const entry = found.get(key) ?? { views: [], items: new Set<string>() };
      const note = audit.displayValue ? ` (${audit.displayValue})` : '';
      entry.views.push(`${view} ${audit.score.toFixed(2)}${note}`);
      for (const item of namedItems(audit.details)) entry.items.add(item);
      found.set(key, entry);
    }
  }
  return found;
}

const pad = (text: string | number, width: number) => String(text).padStart(width);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function printTable(results: ViewResult[]): void {
  const header = [
    'view'.padEnd(13),
    ...['perf', 'a11y', 'best', 'seo', 'agent'].map((name) => pad(name, 5)),
    pad('FCP', 7),
    pad('LCP', 7),
    pad('TBT', 6),
    pad('CLS', 6),
    pad('total', 9),
    pad('JS', 9),
  ].join(' ');
  console.log(`\n${header}\n${'-'.repeat(header.length)}`);
  for (const result of results) {
    const { metrics, bytes } = result;
    console.log(
      [
        result.view.padEnd(13),
        ...categoryIds.map((id) => pad(result.scores[id] ?? '—', 5)),
        pad(seconds(metrics.fcp), 7),
        pad(seconds(metrics.lcp), 7),
        pad(`${Math.round(metrics.tbt)}ms`, 6),
        pad(metrics.cls.toFixed(3), 6),
        pad(kb(bytes.total), 9),
        pad(kb(bytes.javascript), 9),
      ].join(' '),
    );
  }
  console.log(
    'Sizes are bytes transferred (compressed). agent: share of scored agentic checks passed.',
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
async function audit(url: string, port: number) {
  for (let attempt = 1; ; attempt++) {
    const run = await lighthouse(url, { port, output: 'json', logLevel: 'error' });
    if (!run) throw new Error('Lighthouse returned no result');
    if (!run.lhr.runtimeError || attempt === 2) return run;
    console.warn(`  Lighthouse failed (${run.lhr.runtimeError.code}); once more`);
  }
}

let server: RunningServer | undefined;
let chrome: LaunchedChrome | undefined;
const results: ViewResult[] = [];
const reports: [string, Result][] = [];
const failures: string[] = [];

try {
  await mkdir(outDir, { recursive: true });
  server = await startBuiltServer();
  chrome = await launch({ chromePath: chromiumPath, chromeFlags, logLevel: 'silent' });

  // `npm run bench -- home contact` measures only those views.
  const requested = process.argv.slice(2);
  for (const view of requested.length > 0
    ? pageNames.filter((name) => requested.includes(name))
    : pageNames) {
    // Each URL is loaded fresh, so a fragment view renders client-side after load.
    const url = view === 'home' ? `${server.url}/` : `${server.url}/#${view}`;
    console.log(`Lighthouse: ${url}`);
    try {
      const run = await audit(url, chrome.port);
      await writeFile(`${outDir}/lighthouse-${view}.json`, String(run.report));
      if (run.lhr.runtimeError) throw new Error(run.lhr.runtimeError.message);
      for (const warning of run.lhr.runWarnings) console.warn(`  warning: ${warning}`);
      results.push(summarise(view, run.lhr));
      reports.push([view, run.lhr]);
    } catch (error) {
      failures.push(view);
      console.error(`  Lighthouse failed on ${url}: ${(error as Error).message}`);
    }
  }

  printTable(results);
  printAgentic(results);
  const todo = shortfalls(reports);
  if (todo.size > 0) {
    console.log('\nAudits below full marks (view, score, value):');
    for (const [audit, { views, items }] of todo) {
      console.log(`  ${audit}\n      ${views.join('; ')}`);
      for (const item of [...items].slice(0, 5)) console.log(`      - ${item}`);
    }
  }
  // Lighthouse 13 wants Node 22.19 or later; on older Node some insights fail
  // (they carry no weight in the scores, but their advice is missing).
  const errors = new Set(results.flatMap((result) => result.errors));
  if (errors.size > 0) {
    console.log(`\nAudits Lighthouse could not compute (Node ${process.version}):`);
    for (const error of errors) console.log(`  ${error}`);
  }
  await writeFile(
    `${outDir}/summary.json`,
    `${JSON.stringify({ lighthouse: reports[0]?.[1].lighthouseVersion, results, failures }, null, 2)}\n`,
  );
  console.log(`\nReports written to ${outDir}/`);
} finally {
  chrome?.kill();
  await server?.stop();
}

if (failures.length > 0) {
  console.error(`Lighthouse could not audit: ${failures.join(', ')}`);
  process.exitCode = 1;
}
