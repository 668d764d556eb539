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

function medianMetrics(runs: readonly RunMetrics[]): RunMetrics {
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

/** A run and the round of the bench run it belongs to (a view and its control take turns in each). */
export interface RoundRun extends RunMetrics {
  round: number;
}

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
  /**
   * Each round's TBT of the view minus its control's in that round, in round
   * order (a round where either run failed is left out): how steady the
   * difference is from one side-by-side pair to the next.
   */
  tbtByRoundMs: number[];
  /** How far the control's own TBT moved between its runs: the noise the margin is read against. */
  controlTbtSpreadMs: number;
}

export function againstControl(
  pageRuns: readonly RoundRun[],
  controlRuns: readonly RoundRun[],
): AgainstControl {
  const page = medianMetrics(pageRuns);
  const control = medianMetrics(controlRuns);
  const tbtMs = page.tbt - control.tbt;
  const mainThreadRatio = page.mainThread / control.mainThread;
  const controlTbts = controlRuns.map((run) => run.tbt);
  return {
    page,
    control,
    tbtMs,
    mainThreadMs: page.mainThread - control.mainThread,
    lcpMs: page.lcp - control.lcp,
    mainThreadRatio,
    meetsGoal: tbtMs <= goal.tbtAboveControlMs && mainThreadRatio <= goal.mainThreadTimesControl,
    tbtByRoundMs: [...pageRuns]
      .sort((a, b) => a.round - b.round)
      .flatMap((run) => {
        const paired = controlRuns.find((controlRun) => controlRun.round === run.round);
        return paired ? [run.tbt - paired.tbt] : [];
      }),
    controlTbtSpreadMs:
      controlTbts.length > 0 ? Math.max(...controlTbts) - Math.min(...controlTbts) : Number.NaN,
  };
}
