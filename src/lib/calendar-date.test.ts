import { describe, expect, it } from 'vitest';
import { formatLongDate, formatWeekdayDate } from './calendar-date.ts';

describe('calendar dates', () => {
  it('writes a date in full, day first', () => {
    expect(formatLongDate('2026-03-14')).toBe('14 March 2026');
    expect(formatLongDate('2025-12-01')).toBe('1 December 2025');
  });

  it('writes a date with its weekday and no year', () => {
    expect(formatWeekdayDate('2026-12-08')).toBe('Tue 8 December');
    expect(formatWeekdayDate('2027-01-03')).toBe('Sun 3 January');
  });
});
