import { describe, expect, it } from 'vitest';
import { ambiguousUnit, describePeriod, parsePeriod, parseSince, periodBefore } from './period.ts';

describe('parsePeriod', () => {
  it.each([
    ['7d', { count: 7, unit: 'd' }],
    ['2w', { count: 2, unit: 'w' }],
    ['12mo', { count: 12, unit: 'mo' }],
    ['1Y', { count: 1, unit: 'y' }],
    [' 30 d ', { count: 30, unit: 'd' }],
  ])('reads %j', (text, period) => {
    expect(parsePeriod(text)).toEqual(period);
  });

  it.each(['', '0d', '12', 'm', '12m', '1.5m', '-1d', '12h', '12 months', '12345d'])(
    'refuses %j',
    (text) => {
      expect(parsePeriod(text)).toBeUndefined();
    },
  );

  it('refuses a bare m as ambiguous, saying what to write', () => {
    expect(ambiguousUnit('5m')).toBe('"5m" could mean minutes or months: write 5mo for months.');
    expect(ambiguousUnit(' 5M', true)).toBe(
      '"5M" could mean minutes or months: write 5min for minutes or 5mo for months.',
    );
    expect(ambiguousUnit('5mo')).toBeUndefined();
    expect(ambiguousUnit('5min')).toBeUndefined();
  });

  it('names the period in words', () => {
    expect(describePeriod({ count: 12, unit: 'mo' })).toBe('12 months');
    expect(describePeriod({ count: 1, unit: 'd' })).toBe('1 day');
  });
});

describe('periodBefore', () => {
  const now = new Date('2026-03-31T10:15:00.000Z');
  it.each([
    ['1d', '2026-03-30T10:15:00.000Z'],
    ['2w', '2026-03-17T10:15:00.000Z'],
    ['1mo', '2026-02-28T10:15:00.000Z'],
    ['12mo', '2025-03-31T10:15:00.000Z'],
    ['13mo', '2025-02-28T10:15:00.000Z'],
    ['2y', '2024-03-31T10:15:00.000Z'],
  ])('%s before %s is %s', (text, expected) => {
    expect(periodBefore(now, parsePeriod(text)!).toISOString()).toBe(expected);
  });

  it.each(['9999y', '9999mo', '7000y'])(
    'reaches back no further than 1970 for %s, a time PostgreSQL takes',
    (text) => {
      expect(periodBefore(now, parsePeriod(text)!).toISOString()).toBe('1970-01-01T00:00:00.000Z');
    },
  );

  it('counts calendar months into a leap February', () => {
    expect(
      periodBefore(new Date('2028-03-30T00:00:00Z'), { count: 1, unit: 'mo' }).toISOString(),
    ).toBe('2028-02-29T00:00:00.000Z');
  });
});

describe('parseSince', () => {
  const now = new Date('2026-11-22T12:00:00.000Z');
  it.each([
    ['7d', '2026-11-15T12:00:00.000Z'],
    ['12h', '2026-11-22T00:00:00.000Z'],
    ['1H', '2026-11-22T11:00:00.000Z'],
    // A day as the UK writes it, day first.
    ['23/11/2026', '2026-11-23T00:00:00.000Z'],
    ['01/07/2026', '2026-06-30T23:00:00.000Z'],
    ['1/7/2026', '2026-06-30T23:00:00.000Z'],
    // Midnight UK time: GMT in winter, BST (UTC+1) in summer.
    ['2026-01-15', '2026-01-15T00:00:00.000Z'],
    ['2026-07-01', '2026-06-30T23:00:00.000Z'],
    // The days the clocks change: still GMT at midnight in March, still BST in October.
    ['2026-03-29', '2026-03-29T00:00:00.000Z'],
    ['2026-10-25', '2026-10-24T23:00:00.000Z'],
    ['2026-07-01T09:30:00+01:00', '2026-07-01T08:30:00.000Z'],
    ['2026-07-01T09:30Z', '2026-07-01T09:30:00.000Z'],
  ])('reads %s as %s', (text, expected) => {
    expect(parseSince(text, now)?.toISOString()).toBe(expected);
  });

  it.each([
    'yesterday',
    '2026-02-30',
    '2026-13-01',
    '2026-07-01T09:30',
    '0h',
    // Month first (US): there is no 23rd month.
    '11/23/2026',
    '31/02/2026',
    '23/11/26',
    '23-11-2026',
  ])('refuses %j', (text) => {
    expect(parseSince(text, now)).toBeUndefined();
  });
});
