import { describe, expect, it } from 'vitest';
import type { BookingFilter, BookingsRepository } from '../db/bookings-repository.ts';
import { sleep, waitFor } from '../testing/notification-peers.ts';
import { loadRetention, startRetention } from './retention.ts';

describe('loadRetention', () => {
  it('is off when RETENTION is unset or empty', () => {
    expect(loadRetention({})).toBeUndefined();
    expect(loadRetention({ RETENTION: ' ' })).toBeUndefined();
  });

  it('reads a period', () => {
    expect(loadRetention({ RETENTION: '12m' })).toEqual({ count: 12, unit: 'm' });
  });

  it('refuses anything else with a clear message', () => {
    expect(() => loadRetention({ RETENTION: '1 year' })).toThrow(
      /RETENTION must be a number followed by d, w, m or y/,
    );
  });
});

describe('startRetention', () => {
  function repository(deleted: number[]) {
    const calls: (readonly BookingFilter[])[] = [];
    const bookings: BookingsRepository = {
      insertAsAnon: () => Promise.reject(new Error('unused')),
      insertAsService: () => Promise.reject(new Error('unused')),
      selectForService: () => Promise.reject(new Error('unused')),
      deleteForService: async (filters) => {
        calls.push(filters);
        return deleted.shift() ?? 0;
      },
    };
    return { bookings, calls };
  }

  it('deletes what is older than the period at start, then at every interval', async () => {
    const { bookings, calls } = repository([3, 0]);
    const infos: string[] = [];
    const schedule = startRetention({
      bookings,
      period: { count: 12, unit: 'm' },
      now: () => new Date('2026-11-22T10:00:00.000Z'),
      intervalMs: 50,
      log: { info: (message) => infos.push(message), error: () => {} },
    });
    await waitFor(() => calls.length >= 2, 'two purges');
    await schedule.stop();
    const count = calls.length;
    await sleep(120);
    expect(calls.length).toBe(count);
    expect(calls[0]).toEqual([
      { column: 'created_at', operator: 'lt', value: '2025-11-22T10:00:00.000Z', negated: false },
    ]);
    // Only a purge that deleted something is logged.
    expect(infos).toEqual([
      'Retention: deleted 3 booking requests older than 12 months (before 2025-11-22T10:00:00.000Z).',
    ]);
  });

  it('logs a failed purge and tries again at the next interval', async () => {
    const errors: unknown[] = [];
    let attempts = 0;
    const schedule = startRetention({
      bookings: {
        ...repository([]).bookings,
        deleteForService: async () => {
          attempts += 1;
          if (attempts === 1) throw new Error('database unavailable');
          return 0;
        },
      },
      period: { count: 30, unit: 'd' },
      intervalMs: 30,
      log: { info: () => {}, error: (_message, error) => errors.push(error) },
    });
    await waitFor(() => attempts >= 2, 'a second purge');
    await schedule.stop();
    expect(errors).toEqual([new Error('database unavailable')]);
  });
});
