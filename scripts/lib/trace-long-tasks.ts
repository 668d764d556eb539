/**
 * The long tasks of a page load's main thread, read from a Chromium trace
 * (Lighthouse's trace artefact), each with what ran in it. Pure: it takes the
 * trace's events and returns figures.
 *
 * Lighthouse's default (simulated) throttling loads the page unthrottled and
 * counts every main-thread task `cpuSlowdown` times longer (4 on its mobile
 * settings); its total blocking time and main-thread total are computed so.
 * The durations here are scaled the same way, so that they add up to what the
 * bench's table shows; the times at which tasks start are as recorded.
 */

/** The fields of a trace event this module reads. */
export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  /** Microseconds. */
  ts: number;
  /** Microseconds, on complete ('X') events. */
  dur?: number;
  args?: {
    data?: {
      url?: string;
      functionName?: string;
      lineNumber?: number;
      columnNumber?: number;
      type?: string;
      documentLoaderURL?: string;
      isLoadingMainFrame?: boolean;
      frame?: string;
    };
    beginData?: { url?: string };
    fileName?: string;
    frame?: string;
  };
}

/** What ran inside a task: a kind of work and its own time in it (children excluded). */
export interface TaskPart {
  label: string;
  /** Milliseconds, scaled. */
  selfMs: number;
}

export interface LongTask {
  /** Milliseconds after navigation start, as recorded (unscaled). */
  startMs: number;
  /** Milliseconds, scaled. */
  durationMs: number;
  /** Whether it started after the first contentful paint. */
  afterFirstPaint: boolean;
  /** The largest parts first. */
  parts: TaskPart[];
}

export interface MainThreadTasks {
  /** Milliseconds after navigation start, as recorded; NaN when the trace has none. */
  firstPaintMs: number;
  /** Every task's duration added up (scaled), in milliseconds. */
  totalMs: number;
  longTasks: LongTask[];
}

interface Span {
  event: TraceEvent;
  start: number;
  end: number;
  children: Span[];
}

/** The top-level scheduler events: one per main-thread task. */
const taskNames = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);

/** Work of a new document before its HTML is parsed: the window, its script context. */
const documentStart = new Set([
  'V8.DeserializeContext',
  'V8.NewContext',
  'ContextCreatedNotification',
  'InstallConditionalFeatures',
]);

/** A URL as the site's path ('/', '/assets/index-….js'): every URL of a run has the same origin. */
const sitePath = (url: string | undefined) =>
  url ? url.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/[?#].*$/, '') || '/' : '';

/** A name a reader knows for a trace event: the script and function, style, layout… */
export function workLabel(event: TraceEvent): string {
  const data = event.args?.data;
  switch (event.name) {
    case 'FunctionCall': {
      const where = sitePath(data?.url);
      // Chromium's trace gives both from 1.
      const line = data?.lineNumber !== undefined ? `:${data.lineNumber}` : '';
      const column = data?.columnNumber !== undefined ? `:${data.columnNumber}` : '';
      return `script ${data?.functionName || '(anonymous)'}${where ? ` ${where}${line}${column}` : ''}`;
    }
    case 'EvaluateScript':
      return `evaluate script ${sitePath(data?.url) || '(inline)'}`;
    case 'v8.compile':
    case 'v8.compileModule':
    case 'v8.produceModuleCache':
    case 'V8.CompileCode':
    case 'V8.CompileLazy':
      return `compile script ${sitePath(event.args?.fileName ?? data?.url)}`.trim();
    case 'v8.evaluateModule':
      return `evaluate module ${sitePath(data?.url)}`.trim();
    case 'v8.callFunction':
    case 'v8.newInstance':
      return 'script (a callback)';
    case 'v8.run':
      return `run script ${sitePath(event.args?.fileName)}`.trim();
    case 'ParseHTML':
    case 'DecodedDataDocumentParser::AppendBytes':
      return `parse HTML ${sitePath(event.args?.beginData?.url)}`.trim();
    case 'ParseAuthorStyleSheet':
      return 'parse style sheet';
    case 'UpdateLayoutTree':
    case 'RecalculateStyles':
    case 'ScheduleStyleRecalculation':
      return 'style';
    case 'Layout':
    case 'UpdateLayerTree':
    case 'IntersectionObserverController::computeIntersections':
      return 'layout';
    case 'PrePaint':
    case 'Paint':
    case 'PaintImage':
    case 'Layerize':
    case 'Commit':
    case 'UpdateLayer':
      return 'paint';
    case 'EventDispatch':
      return `event ${data?.type ?? ''}`.trim();
    case 'TimerFire':
      return 'timer';
    case 'FireAnimationFrame':
      return 'animation frame';
    case 'RunMicrotasks':
    case 'V8.RunMicrotasks':
      return 'microtasks';
    case 'MinorGC':
    case 'MajorGC':
    case 'V8.GCScavenger':
    case 'V8.GCFinalizeMC':
    case 'V8.GCIncrementalMarking':
    case 'BlinkGC.AtomicPhase':
      return 'garbage collection';
    case 'ResourceReceivedData':
    case 'ResourceReceiveResponse':
    case 'ResourceFinish':
      return 'network';
    case 'HitTest':
      return 'hit test';
    default:
      if (taskNames.has(event.name)) return 'other (the task itself)';
      if (
        /^(DocumentLoader|LocalWindowProxy|LocalFrame)::/.test(event.name) ||
        documentStart.has(event.name)
      )
        return 'document start';
      // Lazy compilation and tier-up of the script running at the time.
      if (
        /^V8\.(BytecodeBudgetInterrupt|HandleInterrupts|StackGuard|Compile|Optimize|Baseline)/.test(
          event.name,
        )
      )
        return 'V8 compile and optimise';
      return event.name;
  }
}

/**
 * The renderer main thread the page was loaded in, and the time its
 * navigation started: the first main-frame navigation to an http(s) URL.
 * (Documents of other frames with no URL, which Chromium commits on the same
 * thread during the load, are not told apart: their work is on that thread too.)
 */
function pageMainThread(events: TraceEvent[]) {
  const navigation = events
    .filter(
      (event) =>
        event.name === 'navigationStart' &&
        event.args?.data?.isLoadingMainFrame &&
        /^https?:/.test(event.args.data.documentLoaderURL ?? ''),
    )
    .sort((a, b) => a.ts - b.ts)[0];
  if (!navigation) throw new Error('The trace has no navigation of the page');
  return { pid: navigation.pid, tid: navigation.tid, start: navigation.ts };
}

/** One thread's events as nested spans ('X' events, and 'B'/'E' pairs). */
function spans(events: TraceEvent[]): Span[] {
  const flat: Span[] = [];
  const open: TraceEvent[] = [];
  for (const event of [...events].sort((a, b) => a.ts - b.ts)) {
    if (event.ph === 'X' && event.dur !== undefined)
      flat.push({ event, start: event.ts, end: event.ts + event.dur, children: [] });
    else if (event.ph === 'B') open.push(event);
    else if (event.ph === 'E') {
      const begin = open.pop();
      if (begin) flat.push({ event: begin, start: begin.ts, end: event.ts, children: [] });
    }
  }
  // Outer spans before the spans they contain; a task before work of the same extent.
  const isTask = (span: Span) => (taskNames.has(span.event.name) ? 0 : 1);
  flat.sort((a, b) => a.start - b.start || b.end - a.end || isTask(a) - isTask(b));
  const roots: Span[] = [];
  const stack: Span[] = [];
  for (const span of flat) {
    while (stack.length > 0 && stack[stack.length - 1]!.end <= span.start) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent && span.end <= parent.end) parent.children.push(span);
    else roots.push(span);
    stack.push(span);
  }
  return roots;
}

/** Each label's own time in a span and everything under it, microseconds. */
function selfTimes(span: Span, into = new Map<string, number>()): Map<string, number> {
  const childTime = span.children.reduce((sum, child) => sum + (child.end - child.start), 0);
  const label = workLabel(span.event);
  into.set(label, (into.get(label) ?? 0) + Math.max(0, span.end - span.start - childTime));
  for (const child of span.children) selfTimes(child, into);
  return into;
}

/**
 * The main thread's tasks of a page load: their total, and those longer than
 * `longerThanMs` once scaled by `cpuSlowdown`, with their `partsPerTask`
 * largest parts.
 */
export function mainThreadTasks(
  events: TraceEvent[],
  { cpuSlowdown = 1, longerThanMs = 50, partsPerTask = 5 } = {},
): MainThreadTasks {
  const thread = pageMainThread(events);
  const paint = events
    .filter(
      (event) =>
        event.name === 'firstContentfulPaint' &&
        event.pid === thread.pid &&
        event.ts >= thread.start,
    )
    .sort((a, b) => a.ts - b.ts)[0];
  const relative = (ts: number) => (ts - thread.start) / 1000;
  const firstPaintMs = paint ? relative(paint.ts) : Number.NaN;
  const tasks = spans(
    events.filter((event) => event.pid === thread.pid && event.tid === thread.tid),
  ).filter((span) => taskNames.has(span.event.name) && span.end >= thread.start);
  const scaled = (microseconds: number) => (microseconds / 1000) * cpuSlowdown;

  const longTasks = tasks
    .filter((task) => scaled(task.end - task.start) > longerThanMs)
    .map((task) => ({
      startMs: relative(task.start),
      durationMs: scaled(task.end - task.start),
      afterFirstPaint: paint ? task.start >= paint.ts : false,
      parts: [...selfTimes(task)]
        .map(([label, self]) => ({ label, selfMs: scaled(self) }))
        .sort((a, b) => b.selfMs - a.selfMs)
        .slice(0, partsPerTask),
    }));
  return {
    firstPaintMs,
    totalMs: tasks.reduce((sum, task) => sum + scaled(task.end - task.start), 0),
    longTasks,
  };
}
