import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerLink } from '../core/answer-link.ts';
import { shortReference } from '../core/booking-reference.ts';
import { dailyRunDue, loadDailySchedule, nextDailyRun } from './daily-schedule.ts';
import {
  composeDailySummary,
  medianOf,
  replyRecordLine,
  replyRecordOf,
  type DailySummaryInput,
} from './daily-summary.ts';
import { startDailyTimer } from '../../../../server/notifications/daily-timer.ts';
import { messageListLimit } from './message-lists.ts';
import { composeDailySummaryPush } from './ntfy-messages.ts';
import { sampleNotice, withAnswerToken } from '../../../../server/testing/notice-samples.ts';
import type { RequestReply } from './notification-states.ts';
import { practice } from '../content/practice.ts';

const { replyWithinHours } = practice;

// The clocks change at 01:00 UTC: forward on 29 March 2026, back on 25 October 2026.
const seven = { hour: 7, minute: 0 };

describe('loadDailySchedule', () => {
  it.each([
    [undefined, { at: seven, summary: true }],
    ['6:45', { at: { hour: 6, minute: 45 }, summary: true }],
    ['23:55', { at: { hour: 23, minute: 55 }, summary: true }],
    // Off stops the summary; the run (the purge) keeps its time.
    ['off', { at: seven, summary: false }],
  ])('sends the summary at 07:00 UK time unless told otherwise: %o', (value, schedule) => {
    expect(loadDailySchedule({ NOTIFY_DAILY_SUMMARY_AT: value })).toEqual(schedule);
  });

  // 23:56: never due on hosted Supabase, whose last call of the day is at 23:55.
  it.each(['7', '24:00', '07:60', '7am', '07:00:00', '23:56'])(
    'refuses %j with a clear message',
    (text) => {
      expect(() => loadDailySchedule({ NOTIFY_DAILY_SUMMARY_AT: text })).toThrow(
        `NOTIFY_DAILY_SUMMARY_AT must be a time of day in UK time, 00:00 to 23:55 (e.g. 07:00), or off (got "${text}").`,
      );
    },
  );
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

const minute = 60_000;
const hour = 60 * minute;

/** A request numbered `index`, which makes its id. */
const notice = (index: number, createdAt: string, fullName: string) =>
  sampleNotice({
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    createdAt: new Date(createdAt),
    fullName,
    email: 'guest@example.com',
  });

/** A request received `ageMs` before `now`, answered `tookMs` after it arrived (null: waiting). */
function replyOf(
  now: Date,
  ageMs: number,
  tookMs: number | null,
  markedBy: RequestReply['markedBy'] = 'link',
): RequestReply {
  const createdAt = new Date(now.getTime() - ageMs);
  return {
    bookingId: crypto.randomUUID(),
    createdAt,
    answeredAt: tookMs === null ? null : new Date(createdAt.getTime() + tookMs),
    markedBy: tookMs === null ? null : markedBy,
  };
}

function summaryAt(now: string, input: Partial<DailySummaryInput> = {}) {
  return composeDailySummary({
    day: now.slice(0, 10),
    now: new Date(now),
    at: seven,
    siteUrl: practice.url,
    emailed: true,
    requests: [],
    failing: [],
    waiting: [],
    replies: [],
    retention: { kind: 'purged', period: { count: 12, unit: 'mo' }, deleted: 0 },
    ...input,
  });
}

describe('composeDailySummary', () => {
  it('says "No new requests" when there were none, so that its absence is the alarm', () => {
    const summary = summaryAt('2026-10-25T07:00:00Z');
    expect(summary.subject).toBe('Daily summary: no new requests');
    expect(summary).toMatchObject({ waitingCount: 0, lateCount: 0, failingCount: 0 });
    expect(summary.text.startsWith('No request is waiting for a reply.\n')).toBe(true);
    expect(summary.text).toContain(
      'This week: no request has been answered or reached its reply-by time yet.',
    );
    expect(summary.text).toContain(
      // From when the day before's summary was due: 25 hours, on the night the clocks go back.
      'No new requests since Saturday 24 October 2026, 07:00 BST.\n',
    );
    expect(summary.text).toContain('No notification is failing.');
    expect(summary.text).toContain(
      'This summary comes every day at 07:00 UK time, with or without requests.',
    );
  });

  it('says one request is waiting, not late, at its reply-by time less a minute; late but "due now" at it, in the text as in the HTML', () => {
    const waiting = [notice(1, '2026-03-28T06:01:00Z', 'Amina Khan')];
    // 24 hours after 06:01 GMT on Saturday is 07:01 BST on Sunday.
    const before = summaryAt('2026-03-29T06:00:00Z', { waiting });
    expect(before.subject).toBe('Daily summary: 1 waiting, no new requests');
    expect(before.text).toContain(
      '1 request is waiting for a reply, oldest first:\n- 1 min left: Amina Khan',
    );
    expect(before.text).toContain('(reply by Sunday 29 March 2026, 07:01 BST)');
    const at = summaryAt('2026-03-29T06:01:00Z', { waiting });
    expect(at.subject).toBe('Daily summary: 1 waiting (1 late), no new requests');
    expect(at.text).toContain('- due now: Amina Khan');
    expect(at.html).toContain('>due now</p>');
  });
});

describe('a day of 30,000 requests', () => {
  it('lists the first of each list, the first waiting with their buttons, and counts the rest, in a summary under 100 KB whose HTML Gmail does not cut (102 KB)', () => {
    const now = new Date('2026-11-25T07:00:00Z');
    const flood = Array.from({ length: 30_000 }, (_, index) =>
      withAnswerToken(
        notice(
          index,
          new Date(now.getTime() - 23 * hour + index * 2000).toISOString(),
          `Flood Robot ${index}`,
        ),
      ),
    );
    const lastError = 'e-mail to practice@example.com: Invalid login: 535 Authentication failed';
    const summary = summaryAt(now.toISOString(), {
      waiting: flood,
      requests: flood.map((booking) => ({
        booking,
        notification: { state: 'failing', attempts: 9, lastError, reachedBy: [] },
      })),
      failing: flood.map((booking) => ({
        bookingId: booking.id,
        createdAt: booking.createdAt,
        attempts: 9,
        lastError,
        reachedBy: [],
      })),
    });
    expect(new TextEncoder().encode(summary.text).length).toBeLessThan(100_000);
    expect(new TextEncoder().encode(summary.html).length).toBeLessThan(100_000);
    expect(summary.subject).toBe(
      'Daily summary: 30,000 waiting, 30,000 new booking requests, 30,000 notifications failing',
    );
    expect(summary.text).toContain(`: Flood Robot ${messageListLimit - 1}, ref`);
    expect(summary.text).not.toContain(`Flood Robot ${messageListLimit},`);
    for (const more of [
      '\u2026 and 29,950 more: npx hijama list --waiting --limit all',
      '\n\u2026 and 29,950 more: npx hijama list --since 2026-11-24 --limit all',
      '\n  \u2026 and 29,950 more: npx hijama list --since 2026-11-24 --limit all\n',
    ]) {
      expect(summary.text).toContain(more);
    }
    expect(summary.html.match(/>Mark as answered</g)).toHaveLength(messageListLimit);
    expect(summary.html.match(/>Call</g)).toHaveLength(10);
    // What fails comes first, in the e-mail as in the push cut to ntfy's size:
    // below the waiting requests, Gmail would cut it from a longer summary.
    for (const part of [summary.text, summary.html]) {
      expect(part.indexOf('30,000 notifications are failing')).toBeGreaterThan(0);
      expect(part.indexOf('30,000 notifications are failing')).toBeLessThan(
        part.indexOf('requests are waiting for a reply'),
      );
    }
    expect(composeDailySummaryPush(summary).message).toContain('30000 notifications are failing');
    expect(summary.html).toContain('\u2026 and 29,950 more: npx hijama list --waiting --limit all');
  });
});

describe('a notification that one channel took while another fails', () => {
  it('says the practice was told, by which channel, and what still fails', () => {
    const now = new Date('2026-11-25T07:00:00Z');
    const booking = withAnswerToken(notice(0, '2026-11-25T06:00:00Z', 'Amina Khan'));
    const lastError =
      'ntfy push to https://ntfy.sh: the ntfy server answered 429 Too Many Requests';
    const { text, subject } = summaryAt(now.toISOString(), {
      requests: [
        {
          booking,
          notification: { state: 'failing', attempts: 2, lastError, reachedBy: ['email'] },
        },
      ],
      failing: [
        {
          bookingId: booking.id,
          createdAt: booking.createdAt,
          attempts: 2,
          lastError,
          reachedBy: ['email'],
        },
      ],
    });
    expect(subject).toBe('Daily summary: 1 new booking request, 1 notification failing');
    expect(text).toContain(
      `   Notified: yes by e-mail; another channel still failing after 2 attempts: ${lastError}\n`,
    );
    expect(text).toContain(
      `  Ref ${shortReference(booking.id)}, received Wednesday 25 November 2026, 06:00 GMT, reached you by e-mail, 2 attempts: ${lastError}\n`,
    );
  });
});

describe("the daily summary's HTML", () => {
  it('gives each waiting request its ways to answer and its own Mark as answered link, with no command to type', () => {
    const now = new Date('2026-11-02T07:00:00Z');
    const received = new Date(now.getTime() - hour).toISOString();
    const waiting = [
      withAnswerToken(notice(0, received, 'Old <Friend>')),
      withAnswerToken(notice(1, received, 'Guest 1')),
    ];
    const { html, text } = summaryAt(now.toISOString(), { waiting });
    for (const request of waiting) {
      expect(html).toContain(`href="${answerLink(practice.url, request.answerToken)}"`);
      expect(text).toContain(
        `  Mark as answered: ${answerLink(practice.url, request.answerToken)}`,
      );
    }
    expect(html.match(/>Mark as answered</g)).toHaveLength(2);
    expect(html.match(/>Call</g)).toHaveLength(2);
    expect(html).toContain('Old &lt;Friend&gt;');
    expect(html).not.toContain('<Friend>');
  });
});

describe("the week's record of replies", () => {
  const now = new Date('2026-11-02T07:00:00Z');

  it.each([
    [[], undefined],
    [[5], 5],
    [[3, 1, 2], 2],
    [[4, 1, 3, 2], 2.5],
    // Numbers, not text: 10 sorts before 9 as text.
    [[10, 9, 1], 9],
  ])('the median of %j is %s', (values, median) => {
    expect(medianOf(values)).toBe(median);
  });

  it.each([
    [
      'answered ones within the promise, with the median over an odd number of answers',
      () => [
        replyOf(now, 6 * 24 * hour, 1 * hour),
        replyOf(now, 5 * 24 * hour, 3 * hour + 10 * minute),
        // Answered late: counted, not within; its time is in the median.
        replyOf(now, 4 * 24 * hour, 30 * hour),
        // Never answered and past its reply-by time.
        replyOf(now, 3 * 24 * hour, null),
        // Waiting, still within its time: not known yet.
        replyOf(now, 2 * hour, null),
      ],
      { decided: 4, answeredInTime: 2, medianMs: 3 * hour + 10 * minute },
      `This week: answered 2 of 4 within ${replyWithinHours} hours, median 3 h 10 min.`,
    ],
    [
      // Two answers: the median is their mean.
      'an answer at exactly 24 hours as within, a minute later as not',
      () => [
        replyOf(now, 3 * 24 * hour, 24 * hour),
        replyOf(now, 3 * 24 * hour, 24 * hour + minute),
      ],
      { decided: 2, answeredInTime: 1, medianMs: 24 * hour + 30_000 },
      `This week: answered 1 of 2 within ${replyWithinHours} hours, median 24 h 00 min.`,
    ],
    [
      'nothing, and says so, when nothing was answered',
      () => [replyOf(now, 2 * hour, null)],
      { decided: 0, answeredInTime: 0, medianMs: undefined },
      'This week: no request has been answered or reached its reply-by time yet.',
    ],
    [
      'none within, with no median, when those past due were never answered',
      () => [replyOf(now, 25 * hour, null), replyOf(now, 6 * 24 * hour, null)],
      { decided: 2, answeredInTime: 0, medianMs: undefined },
      `This week: answered 0 of 2 within ${replyWithinHours} hours.`,
    ],
  ])('counts %s', (_, replies, expected, line) => {
    const record = replyRecordOf(replies(), now);
    expect(record).toEqual(expected);
    expect(replyRecordLine(record)).toBe(line);
  });

  it('shows a command to type in code type in its HTML, whole on its line, not between backticks', () => {
    const { text, html } = summaryAt('2026-11-29T07:00:00Z', {
      retention: { kind: 'off' },
      settingProblems: ['RETENTION must be a number followed by d, w, mo or y, or off.'],
    });
    expect(text).toContain('`npx hijama purge --older-than 12mo`');
    expect(html).not.toContain('`');
    expect(html).toContain('<span style="white-space:nowrap">--older-than</span>');
    expect(html).toContain('<span style="white-space:nowrap">secrets</span>');
  });

  it('does not know of an answer recorded after the summary is composed', () => {
    const later = replyOf(now, 2 * hour, 3 * hour);
    expect(replyRecordOf([later], now).decided).toBe(0);
    expect(replyRecordOf([later], new Date(now.getTime() + hour)).decided).toBe(1);
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
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
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
    const { firstRuns, longestGap } = await firstRunOfEachDay('2026-10-24T04:30:00Z', 51);
    expect(firstRuns).toEqual({
      '2026-10-24': '2026-10-24T06:00:00.000Z',
      '2026-10-25': '2026-10-25T07:00:00.000Z',
      '2026-10-26': '2026-10-26T07:00:00.000Z',
    });
    expect(longestGap).toBeLessThanOrEqual(60 * 60 * 1000);
  });

  it('runs at start when the day’s time has passed, then at 07:00 BST after the March change', async () => {
    const { firstRuns } = await firstRunOfEachDay('2026-03-28T12:17:00Z', 45);
    expect(firstRuns).toEqual({
      '2026-03-28': '2026-03-28T12:17:00.000Z',
      '2026-03-29': '2026-03-29T06:00:00.000Z',
      '2026-03-30': '2026-03-30T06:00:00.000Z',
    });
  });
});
