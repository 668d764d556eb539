import { describe, expect, it } from 'vitest';
import { nextSunnahDays, sunnahDaysForBuild, sunnahDaysFrom } from './sunnah-days.ts';

/** Jumada al-Akhirah and Rajab 1448 by Umm al-Qura: the 17th is 27 November 2026. */
const table = sunnahDaysFrom('2026-11-20', 50);

describe('the Sunnah days the build writes', () => {
  it('are the 17th, 19th and 21st of each Hijri month, by Umm al-Qura', () => {
    expect(table).toEqual([
      '2026-11-27',
      '2026-11-29',
      '2026-12-01',
      '2026-12-26',
      '2026-12-28',
      '2026-12-30',
    ]);
  });

  it('cover three years from the day before the build', () => {
    const built = sunnahDaysForBuild(new Date('2026-11-27T10:00:00Z'));
    expect(built[0]).toBe('2026-11-27');
    expect(built.length).toBeGreaterThanOrEqual(3 * 12 * 3);
    expect(built.at(-1)! > '2029-11-01').toBe(true);
  });
});

describe('the next three Sunnah days', () => {
  it.each([
    // On a Sunnah day, counting that day.
    ['2026-11-27', ['2026-11-27', '2026-11-29', '2026-12-01']],
    // Between two of a month, across the Hijri month end.
    ['2026-11-28', ['2026-11-29', '2026-12-01', '2026-12-26']],
    // On the last of a month, and after it.
    ['2026-12-01', ['2026-12-01', '2026-12-26', '2026-12-28']],
    ['2026-12-02', ['2026-12-26', '2026-12-28', '2026-12-30']],
    // Before the table starts.
    ['2026-01-01', ['2026-11-27', '2026-11-29', '2026-12-01']],
    // Near the end of the table only those left; past it, none.
    ['2026-12-29', ['2026-12-30']],
    ['2027-02-01', []],
  ] as const)('from %s are %j', (today, expected) => {
    expect(nextSunnahDays(today, table)).toEqual(expected);
  });
});
