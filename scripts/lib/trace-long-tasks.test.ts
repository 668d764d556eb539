import { describe, expect, it } from 'vitest';
import { mainThreadTasks, workLabel, type TraceEvent } from './trace-long-tasks.ts';

const pid = 10;
const tid = 1;
const start = 1_000_000;
/** A complete event on the page's main thread, `at` and `ms` in milliseconds after navigation start. */
const complete = (name: string, at: number, ms: number, args?: TraceEvent['args']): TraceEvent => ({
  name,
  ph: 'X',
  pid,
  tid,
  ts: start + at * 1000,
  dur: ms * 1000,
  args,
});

const navigation: TraceEvent = {
  name: 'navigationStart',
  ph: 'R',
  pid,
  tid,
  ts: start,
  args: { data: { isLoadingMainFrame: true, documentLoaderURL: 'http://127.0.0.1:4000/' } },
};
const blankPage: TraceEvent = {
  ...navigation,
  pid: 9,
  ts: start - 5000,
  args: { data: { isLoadingMainFrame: true, documentLoaderURL: '' } },
};
const firstPaint: TraceEvent = {
  name: 'firstContentfulPaint',
  ph: 'R',
  pid,
  tid,
  ts: start + 100_000,
};
const script = {
  data: {
    url: 'http://127.0.0.1:4000/assets/index-a1.js',
    functionName: 'hydrate',
    lineNumber: 2,
    columnNumber: 9,
  },
};

const events: TraceEvent[] = [
  blankPage,
  navigation,
  firstPaint,
  // Before the first paint: parse and lay out, 14 ms (56 ms counted 4×).
  complete('RunTask', 10, 14),
  complete('ParseHTML', 10, 8, { beginData: { url: 'http://127.0.0.1:4000/' } }),
  complete('Layout', 18, 5),
  // After it: the script, 30 ms, of which 6 ms of style it forces and 2 of layout.
  complete('RunTask', 150, 30),
  complete('FunctionCall', 150, 29, script),
  complete('UpdateLayoutTree', 160, 6),
  complete('Layout', 170, 2),
  // A short task.
  complete('RunTask', 200, 3),
  // Another thread's long task is not the page's.
  { ...complete('RunTask', 50, 40), tid: 2 },
];

describe("the main thread's tasks", () => {
  const tasks = mainThreadTasks(events, { cpuSlowdown: 4 });

  it('adds up every task of the page, scaled', () => {
    expect(tasks.totalMs).toBeCloseTo((14 + 30 + 3) * 4);
    expect(tasks.firstPaintMs).toBe(100);
  });

  it('lists those over 50 ms once scaled, with their largest parts first', () => {
    expect(tasks.longTasks).toEqual([
      {
        startMs: 10,
        durationMs: 56,
        afterFirstPaint: false,
        parts: [
          { label: 'parse HTML /', selfMs: 32 },
          { label: 'layout', selfMs: 20 },
          { label: 'other (the task itself)', selfMs: 4 },
        ],
      },
      {
        startMs: 150,
        durationMs: 120,
        afterFirstPaint: true,
        parts: [
          { label: 'script hydrate /assets/index-a1.js:2:9', selfMs: 84 },
          { label: 'style', selfMs: 24 },
          { label: 'layout', selfMs: 8 },
          { label: 'other (the task itself)', selfMs: 4 },
        ],
      },
    ]);
  });

  it('counts tasks as recorded when the trace was slowed down already', () => {
    expect(mainThreadTasks(events).longTasks).toEqual([]);
  });

  it('pairs begin and end events like complete ones', () => {
    const paired: TraceEvent[] = [
      navigation,
      { name: 'RunTask', ph: 'B', pid, tid, ts: start + 1000 },
      complete('Layout', 1, 60),
      { name: 'RunTask', ph: 'E', pid, tid, ts: start + 61_000 },
    ];
    expect(mainThreadTasks(paired).longTasks[0]?.parts[0]).toEqual({ label: 'layout', selfMs: 60 });
  });

  it('needs the navigation of the page', () => {
    expect(() => mainThreadTasks([blankPage])).toThrow(/no navigation/);
  });
});

describe('what a trace event is called', () => {
  it('names the script and style work a reader knows', () => {
    expect(
      workLabel(complete('EvaluateScript', 0, 1, { data: { url: 'http://h/assets/x.js' } })),
    ).toBe('evaluate script /assets/x.js');
    expect(workLabel(complete('RecalculateStyles', 0, 1))).toBe('style');
    expect(workLabel(complete('EventDispatch', 0, 1, { data: { type: 'click' } }))).toBe(
      'event click',
    );
    expect(workLabel(complete('SomethingNew', 0, 1))).toBe('SomethingNew');
  });
});
