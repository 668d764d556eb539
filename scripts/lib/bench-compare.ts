/**
 * A view's runs against its control's, measured in the same bench run: the
 * medians, and what the view costs beyond the page without scripts. Pure.
 */

/** What one Lighthouse run of a page (a view or its control) measured. Milliseconds. */
export interface RunMetrics {
  tbt: number;
  /** Lighthouse's main-thread work (`mainthread-work-breakdown`). */
  mainThread: number;
  lcp: number;
  /** Lighthouse's CPU benchmark index of the machine at that run: higher is faster. */
  benchmarkIndex: number;
}

/** The median of the numbers that are numbers; NaN when there are none. */
export function median(values: readonly number[]): number {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The index of the run whose `value` is the median one (the lower middle of an even count). */
export function medianRunIndex<T>(runs: readonly T[], value: (run: T) => number): number {
  const order = runs
    .map((run, index) => ({ index, value: value(run) }))
    .sort((a, b) => (a.value || 0) - (b.value || 0));
  return order[Math.floor((order.length - 1) / 2)]?.index ?? -1;
}

export function medianMetrics(runs: readonly RunMetrics[]): RunMetrics {
  return {
    tbt: median(runs.map((run) => run.tbt)),
    mainThread: median(runs.map((run) => run.mainThread)),
    lcp: median(runs.map((run) => run.lcp)),
    benchmarkIndex: median(runs.map((run) => run.benchmarkIndex)),
  };
}

/** What every view aims for, against its control: little more work than the page without scripts. */
export const goal = {
  /** Total blocking time at most this much above the control's. */
  tbtAboveControlMs: 100,
  /** Main-thread work at most this many times the control's. */
  mainThreadTimesControl: 1.5,
} as const;

export interface AgainstControl {
  page: RunMetrics;
  control: RunMetrics;
  /** The view's medians minus the control's. */
  tbtMs: number;
  mainThreadMs: number;
  lcpMs: number;
  /** The view's main-thread work as a multiple of the control's. */
  mainThreadRatio: number;
  meetsGoal: boolean;
}

export function againstControl(
  pageRuns: readonly RunMetrics[],
  controlRuns: readonly RunMetrics[],
): AgainstControl {
  const page = medianMetrics(pageRuns);
  const control = medianMetrics(controlRuns);
  const tbtMs = page.tbt - control.tbt;
  const mainThreadRatio = page.mainThread / control.mainThread;
  return {
    page,
    control,
    tbtMs,
    mainThreadMs: page.mainThread - control.mainThread,
    lcpMs: page.lcp - control.lcp,
    mainThreadRatio,
    meetsGoal: tbtMs <= goal.tbtAboveControlMs && mainThreadRatio <= goal.mainThreadTimesControl,
  };
}
