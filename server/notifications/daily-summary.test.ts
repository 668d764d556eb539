import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  composeDailySummary,
  dailyRunDue,
  loadDailySchedule,
  nextDailyRun,
} from './daily-summary.ts';
import { startDailyTimer } from './daily-timer.ts';

// The clocks change at 01:00 UTC: forward on 29 March 2026, back on 25 October 2026.
const seven = { hour: 7, minute: 0 };

describe('loadDailySchedule', () => {
  it('sends the summary at 07:00 UK time unless told otherwise', () => {
    expect(loadDailySchedule({})).toEqual({ at: seven, summary: true });
    expect(loadDailySchedule({ NOTIFY_DAILY_SUMMARY_AT: '6:45' })).toEqual({
      at: { hour: 6, minute: 45 },
      summary: true,
    });
    // Off stops the summary; the run (the purge) keeps its time.
    expect(loadDailySchedule({ NOTIFY_DAILY_SUMMARY_AT: 'off' })).toEqual({
      at: seven,
      summary: false,
    });
  });

  it.each(['7', '24:00', '07:60', '7am', '07:00:00'])('refuses %j with a clear message', (text) => {
    expect(() => loadDailySchedule({ NOTIFY_DAILY_SUMMARY_AT: text })).toThrow(
      `NOTIFY_DAILY_SUMMARY_AT must be a time of day in UK time, 00:00 to 23:59 (e.g. 07:00), or off (got "${text}").`,
    );
  });
});

describe('when the daily run is due, in UK time', () => {
  it.each([
    // The Saturday before the clocks go back: 07:00 BST is 06:00 UTC.
    ['2026-10-24T05:59:59Z', undefined],
    ['2026-10-24T06:00:00Z', '2026-10-24'],
    // The Sunday they go back: 07:00 GMT is 07:00 UTC; at 06:00 UTC it is 06:00 GMT.
    ['2026-10-25T06:00:00Z', undefined],
    ['2026-10-25T06:59:59Z', undefined],
    ['2026-10-25T07:00:00Z', '2026-10-25'],
    // The Saturday before they go forward: 07:00 GMT.
    ['2026-03-28T06:30:00Z', undefined],
    ['2026-03-28T07:00:00Z', '2026-03-28'],
    // The Sunday they go forward: 07:00 BST is 06:00 UTC.
    ['2026-03-29T05:59:59Z', undefined],
    ['2026-03-29T06:00:00Z', '2026-03-29'],
    // Late in the UK evening, past midnight UTC in summer: still the same UK day.
    ['2026-07-01T22:30:00Z', '2026-07-01'],
    ['2026-07-01T23:30:00Z', undefined],
  ])('at %s: %s', (now, day) => {
    expect(dailyRunDue(new Date(now), seven)).toBe(day);
  });

  it.each([
    // Across the October change the wait is 25 hours, across March's 23.
    ['2026-10-24T06:00:00Z', '2026-10-25T07:00:00.000Z'],
    ['2026-10-25T03:00:00Z', '2026-10-25T07:00:00.000Z'],
    ['2026-10-25T07:00:00Z', '2026-10-26T07:00:00.000Z'],
    ['2026-03-28T07:00:00Z', '2026-03-29T06:00:00.000Z'],
    ['2026-03-29T00:30:00Z', '2026-03-29T06:00:00.000Z'],
    ['2026-03-29T06:00:00Z', '2026-03-30T06:00:00.000Z'],
  ])('after %s the next run is at %s', (now, next) => {
    expect(nextDailyRun(new Date(now), seven).toISOString()).toBe(next);
  });
});

describe('composeDailySummary', () => {
  it('says "No new requests" when there were none, so that its absence is the alarm', () => {
    const summary = composeDailySummary({
      day: '2026-10-25',
      now: new Date('2026-10-25T07:00:00Z'),
      at: seven,
      requests: [],
      failing: [],
      retention: { kind: 'purged', period: { count: 12, unit: 'm' }, deleted: 0 },
    });
    expect(summary.subject).toBe('Daily summary: no new requests');
    expect(summary.text).toContain(
      'No new requests in the 24 hours since Saturday 24 October 2026, 08:00 BST.\n',
    );
    expect(summary.text).toContain('No notification is failing.');
    expect(summary.text).toContain(
      'This summary comes every day at 07:00 UK time, with or without requests.',
    );
  });
});

describe('startDailyTimer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * The timer with a run that does each UK day's work once, as the database
   * makes it (daily-run.ts): the first instant of each day's run.
   */
  async function firstRunOfEachDay(start: string, hours: number) {
    vi.setSystemTime(new Date(start));
    const firstRuns = new Map<string, string>();
    const runs: number[] = [];
    const timer = startDailyTimer({
      at: seven,
      run: async () => {
        const now = new Date();
        runs.push(now.getTime());
        const day = dailyRunDue(now, seven);
        if (day && !firstRuns.has(day)) firstRuns.set(day, now.toISOString());
      },
    });
    await vi.advanceTimersByTimeAsync(hours * 60 * 60 * 1000);
    await timer.stop();
    const gaps = runs.slice(1).map((run, index) => run - runs[index]!);
    return { firstRuns: Object.fromEntries(firstRuns), longestGap: Math.max(...gaps) };
  }

  it('runs at 07:00 UK time each day across the October change, and at least hourly', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { firstRuns, longestGap } = await firstRunOfEachDay('2026-10-24T04:30:00Z', 51);
    expect(firstRuns).toEqual({
      '2026-10-24': '2026-10-24T06:00:00.000Z',
      '2026-10-25': '2026-10-25T07:00:00.000Z',
      '2026-10-26': '2026-10-26T07:00:00.000Z',
    });
    expect(longestGap).toBeLessThanOrEqual(60 * 60 * 1000);
  });

  it('runs at start when the day’s time has passed, then at 07:00 BST after the March change', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { firstRuns } = await firstRunOfEachDay('2026-03-28T12:17:00Z', 45);
    expect(firstRuns).toEqual({
      '2026-03-28': '2026-03-28T12:17:00.000Z',
      '2026-03-29': '2026-03-29T06:00:00.000Z',
      '2026-03-30': '2026-03-30T06:00:00.000Z',
    });
  });
});
