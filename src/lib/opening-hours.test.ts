import { describe, expect, it } from 'vitest';
import { site, type OpeningHours } from '../content/site.ts';
import { dateIn, formatTime, localTimeIn, openingStatus } from './opening-hours.ts';
import { clinicUtcOffsets } from './clinic-utc-offsets.ts';
import { offsetFromTable, utcOffsetsBetween } from './utc-offsets.ts';

describe('formatTime', () => {
  it.each([
    ['09:00', '9:00 AM'],
    ['20:30', '8:30 PM'],
    ['08:00', '8:00 AM'],
    ['15:00', '3:00 PM'],
    ['12:00', '12:00 PM'],
    ['00:15', '12:15 AM'],
  ])('%s reads %s', (time, text) => {
    expect(formatTime(time)).toBe(text);
  });
});

/**
 * The specification's week, as a fixture of the test's own: the rule is
 * tested here, not the hours the content file happens to hold.
 */
const week: OpeningHours[] = [
  { label: 'Weekdays', days: [1, 2, 3, 4, 5], opens: '09:00', closes: '20:30' },
  { label: 'Saturday', days: [6], opens: '08:00', closes: '15:00' },
  { label: 'Sunday', days: [0], opens: '08:00', closes: '15:00' },
];

const londonAt = (instant: string) => localTimeIn('Europe/London', new Date(instant));
const statusAt = (instant: string) => openingStatus(week, londonAt(instant));
const open = (closes: string) => ({ open: true, closes });
/** Closed; opens at `opens`, `daysAhead` days on, a day numbered `weekday` (0 is Sunday). */
const closed = (opens: string, daysAhead: number, weekday: number) => ({
  open: false,
  opens,
  daysAhead,
  weekday,
});

describe('openingStatus in Europe/London', () => {
  it.each([
    // A winter week (GMT = UTC).
    ['Monday before opening', '2026-11-23T08:59:00Z', closed('09:00', 0, 1)],
    ['Monday at opening', '2026-11-23T09:00:00Z', open('20:30')],
    ['Tuesday midday', '2026-11-24T12:00:00Z', open('20:30')],
    ['Wednesday one minute before closing', '2026-11-25T20:29:00Z', open('20:30')],
    ['Wednesday at closing', '2026-11-25T20:30:00Z', closed('09:00', 1, 4)],
    ['Thursday just after midnight', '2026-11-26T00:01:00Z', closed('09:00', 0, 4)],
    ['Friday evening', '2026-11-27T21:00:00Z', closed('08:00', 1, 6)],
    ['Saturday at eight', '2026-11-28T08:00:00Z', open('15:00')],
    ['Saturday at three', '2026-11-28T15:00:00Z', closed('08:00', 1, 0)],
    ['Sunday morning', '2026-11-29T10:00:00Z', open('15:00')],
    ['Sunday evening', '2026-11-29T18:00:00Z', closed('09:00', 1, 1)],
    // Across the clock changes.
    // Clocks go forward at 01:00 UTC on Sunday 29 March 2026: 07:30 UTC is 08:30 BST.
    ['the first morning of summer time', '2026-03-29T07:30:00Z', open('15:00')],
    ['the last night of winter time', '2026-03-28T23:30:00Z', closed('08:00', 1, 0)],
    // In summer, 19:45 UTC is 20:45 BST: closed on a weekday.
    ['a summer weekday evening', '2026-06-10T19:45:00Z', closed('09:00', 1, 4)],
    ['a summer weekday morning', '2026-06-10T08:15:00Z', open('20:30')],
    // Clocks go back at 01:00 UTC on Sunday 25 October 2026: 07:30 UTC is 07:30 GMT.
    ['the first morning of winter time', '2026-10-25T07:30:00Z', closed('08:00', 0, 0)],
    ['the last Saturday of summer time', '2026-10-24T07:30:00Z', open('15:00')],
  ])('%s', (_name, instant, expected) => {
    expect(statusAt(instant)).toEqual(expected);
  });
});

describe('localTimeIn', () => {
  it('reads the clinic clock, not the computer’s', () => {
    expect(londonAt('2026-07-01T23:30:00Z')).toEqual({ weekday: 4, minutes: 30 });
    expect(londonAt('2026-01-01T23:30:00Z')).toEqual({ weekday: 4, minutes: 23 * 60 + 30 });
  });
});

describe('localTimeIn from the table of clock changes', () => {
  const from = Date.UTC(2026, 0, 1);
  const until = Date.UTC(2028, 0, 1);
  const table = utcOffsetsBetween('Europe/London', from, until);

  it('finds the two changes a year, at 01:00 UTC on the last Sundays of March and October', () => {
    expect(
      table.changes.slice(1).map(([at, offset]) => [new Date(at).toISOString(), offset]),
    ).toEqual([
      ['2026-03-29T01:00:00.000Z', 60],
      ['2026-10-25T01:00:00.000Z', 0],
      ['2027-03-28T01:00:00.000Z', 60],
      ['2027-10-31T01:00:00.000Z', 0],
    ]);
  });

  it('agrees with Intl every 37 minutes over two years, the changes included', () => {
    const instants: number[] = [];
    for (let at = from; at < until; at += 37 * 60_000) instants.push(at);
    for (const [at] of table.changes) instants.push(at - 60_000, at, at + 60_000);
    for (const at of instants) {
      const now = new Date(at);
      expect(localTimeIn('Europe/London', now, table)).toEqual(
        localTimeIn('Europe/London', now, null),
      );
    }
  });

  it('falls back to Intl outside the table and for another time zone', () => {
    expect(offsetFromTable(table, until)).toBeNull();
    expect(offsetFromTable(table, from - 1)).toBeNull();
    expect(localTimeIn('Asia/Tokyo', new Date('2026-07-01T23:30:00Z'), table)).toEqual({
      weekday: 4,
      minutes: 8 * 60 + 30,
    });
  });

  it('the build’s table is the clinic’s zone and covers the years after the build', () => {
    const built = clinicUtcOffsets(new Date('2026-11-24T12:00:00Z'));
    expect(built.timeZone).toBe(site.timeZone);
    expect(offsetFromTable(built, Date.UTC(2025, 0, 1))).toBe(0);
    expect(offsetFromTable(built, Date.UTC(2040, 6, 1))).toBe(60);
  });
});

describe('dateIn', () => {
  const table = utcOffsetsBetween('Europe/London', Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1));

  it.each([
    ["London's date, a day ahead of UTC's late on a summer evening", '2026-07-01', '2026-07-02'],
    ["UTC's date in winter", '2026-01-01', '2026-01-01'],
  ])('is %s, from the table and from Intl', (_, utcDate, londonDate) => {
    for (const offsets of [table, null]) {
      expect(dateIn('Europe/London', new Date(`${utcDate}T23:30:00Z`), offsets)).toBe(londonDate);
    }
  });
});
