import { describe, expect, it } from 'vitest';
import { formatTime } from './opening-hours.ts';

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
