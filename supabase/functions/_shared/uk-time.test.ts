import { describe, expect, it } from 'vitest';
import {
  formatDuration,
  formatUkTimeLong,
  formatUkTimeShort,
  nextUkDay,
  ukClockInstant,
  ukDayOf,
} from './uk-time.ts';

// The clocks change at 01:00 UTC: forward on 29 March 2026, back on 25 October 2026.

describe('ukDayOf', () => {
  it.each([
    ['2026-07-01T22:59:59Z', '2026-07-01'],
    // Midnight BST is 23:00 UTC the day before.
    ['2026-07-01T23:00:00Z', '2026-07-02'],
    ['2026-12-31T23:59:59Z', '2026-12-31'],
    ['2026-10-24T23:30:00Z', '2026-10-25'],
  ])('%s is %s in the UK', (instant, day) => {
    expect(ukDayOf(new Date(instant))).toBe(day);
  });
});

describe('nextUkDay', () => {
  it.each([
    ['2026-10-24', '2026-10-25'],
    ['2026-12-31', '2027-01-01'],
    ['2028-02-28', '2028-02-29'],
  ])('after %s comes %s', (day, next) => {
    expect(nextUkDay(day)).toBe(next);
  });
});

describe('ukClockInstant', () => {
  it.each([
    ['2026-01-15', 7, 0, '2026-01-15T07:00:00.000Z'],
    ['2026-07-01', 7, 0, '2026-07-01T06:00:00.000Z'],
    // The days the clocks change: GMT before 01:00 UTC, BST after (and the reverse).
    ['2026-03-29', 0, 30, '2026-03-29T00:30:00.000Z'],
    ['2026-03-29', 7, 0, '2026-03-29T06:00:00.000Z'],
    ['2026-10-25', 0, 30, '2026-10-24T23:30:00.000Z'],
    ['2026-10-25', 7, 0, '2026-10-25T07:00:00.000Z'],
    // 01:30 never shows in March: the clock reads 02:30 BST at 01:30 UTC.
    ['2026-03-29', 1, 30, '2026-03-29T01:30:00.000Z'],
    // 01:30 shows twice in October: the first time, in BST.
    ['2026-10-25', 1, 30, '2026-10-25T00:30:00.000Z'],
  ])('%s at %i:%i UK time is %s', (day, hour, minute, instant) => {
    expect(ukClockInstant(day, { hour, minute }).toISOString()).toBe(instant);
  });
});

describe('formatDuration', () => {
  const from = new Date('2026-10-24T18:30:00Z');
  it.each([
    [0, '0 min'],
    [45, '45 min'],
    [60, '1 h 00 min'],
    [12 * 60 + 30, '12 h 30 min'],
    [47 * 60 + 59, '47 h 59 min'],
    [50 * 60, '2 days 2 h'],
  ])('%i minutes read "%s"', (minutes, text) => {
    expect(formatDuration(from, new Date(from.getTime() + minutes * 60_000))).toBe(text);
  });
});

describe('formatUkTimeLong and formatUkTimeShort', () => {
  it.each([
    ['2026-01-15T09:05:00Z', 'Thursday 15 January 2026, 09:05 GMT', 'Thu 15 Jan 2026 09:05'],
    ['2026-07-01T13:05:00Z', 'Wednesday 1 July 2026, 14:05 BST', 'Wed 01 Jul 2026 14:05'],
    ['2026-10-24T23:30:00Z', 'Sunday 25 October 2026, 00:30 BST', 'Sun 25 Oct 2026 00:30'],
  ])('show %s as %s', (instant, long, short) => {
    expect(formatUkTimeLong(new Date(instant))).toBe(long);
    expect(formatUkTimeShort(new Date(instant))).toBe(short);
  });
});
