import { describe, expect, it } from 'vitest';
import { practice } from '../content/practice.ts';
import { useTestDatabase } from '../../../../server/testing/test-database.ts';
import { testEngines } from '../../../../server/testing/helpers.ts';
import { storeWaitingRequest } from '../../../../server/testing/answer-fixtures.ts';
import { periodBefore } from './period.ts';
import {
  loadRetention,
  promisedRetention,
  purgeOldRequests,
  retentionWarning,
} from './retention.ts';

describe('loadRetention', () => {
  it('keeps the privacy notice’s promise when RETENTION is unset or empty', () => {
    expect(promisedRetention).toEqual({ count: practice.retentionMonths, unit: 'mo' });
    expect(loadRetention({})).toEqual(promisedRetention);
    expect(loadRetention({ RETENTION: ' ' })).toEqual(promisedRetention);
  });

  it('reads a period, and off', () => {
    expect(loadRetention({ RETENTION: '6mo' })).toEqual({ count: 6, unit: 'mo' });
    expect(loadRetention({ RETENTION: 'off' })).toBeUndefined();
    expect(loadRetention({ RETENTION: 'OFF' })).toBeUndefined();
  });

  it('refuses anything else with a clear message', () => {
    expect(() => loadRetention({ RETENTION: '1 year' })).toThrow(
      /RETENTION must be a number followed by d, w, mo or y .*, or off \(got "1 year"\)/,
    );
    expect(() => loadRetention({ RETENTION: '6m' })).toThrow(
      'RETENTION: "6m" could mean minutes or months: write 6mo for months',
    );
  });
});

describe('retentionWarning', () => {
  it('says nothing when requests are deleted at or before the promised age', () => {
    expect(retentionWarning(promisedRetention)).toBeUndefined();
    expect(retentionWarning({ count: 30, unit: 'd' })).toBeUndefined();
    expect(retentionWarning({ count: 1, unit: 'y' })).toBeUndefined();
  });

  it('warns that nothing is deleted by a period shorter than a month, likely a slip (12d for 12mo)', () => {
    expect(retentionWarning({ count: 12, unit: 'd' })).toBe(
      `Warning: RETENTION=12d is shorter than a month, so nothing is deleted: set it to 28d, 4w, 1mo or longer (${practice.retentionMonths}mo, as the privacy notice says), or delete sooner by hand with \`npx hijama purge --older-than 12d\`, which shows what it would delete and asks first.`,
    );
    expect(retentionWarning({ count: 4, unit: 'w' })).toBeUndefined();
  });

  it('warns, saying what to do, when retention is off or longer than promised', () => {
    expect(retentionWarning(undefined)).toMatch(
      new RegExp(
        `^Warning: RETENTION is off, .* the privacy notice .* deleted after ${practice.retentionMonths} months\\. Remove RETENTION=off`,
      ),
    );
    expect(retentionWarning({ count: 2, unit: 'y' })).toMatch(
      new RegExp(
        `^Warning: RETENTION=2y keeps booking requests for 2 years, longer than the ${practice.retentionMonths} months .* Set RETENTION=${practice.retentionMonths}mo`,
      ),
    );
  });
});

describe.each(testEngines('retention'))('purgeOldRequests on $name', (engine) => {
  const opened = useTestDatabase(engine);

  it('deletes exactly the requests older than the period, with their notifications, and logs it', async () => {
    const now = new Date('2026-11-22T10:00:00.000Z');
    const cutoff = periodBefore(now, promisedRetention);
    const ages = { older: cutoff.getTime() - 1_000, newer: cutoff.getTime() + 1_000 };
    for (const [name, time] of Object.entries(ages)) {
      const createdAt = new Date(time).toISOString();
      await storeWaitingRequest(opened.db, { created_at: createdAt, full_name: name });
    }
    const infos: string[] = [];
    const deleted = await purgeOldRequests({
      db: opened.db,
      period: promisedRetention,
      now,
      log: { info: (message) => infos.push(message) },
    });
    expect(deleted).toBe(1);
    expect(infos).toEqual([
      'Retention: deleted 1 booking request older than 12 months (before 2025-11-22T10:00:00.000Z).',
    ]);
    const { rows } = await opened.db.query<{ full_name: string; notified: boolean }>(
      `select b.full_name, exists (select 1 from app_private.messages n
                                    where n.kind = 'notification' and n.booking_id = b.id) as notified
         from public.bookings b`,
    );
    expect(rows).toEqual([{ full_name: 'newer', notified: true }]);
    const { rows: outbox } = await opened.db.query(
      `select 1 from app_private.messages where kind = 'notification'`,
    );
    expect(outbox).toHaveLength(1);

    // A period shorter than a month deletes nothing, and says why.
    await expect(
      purgeOldRequests({ db: opened.db, period: { count: 1, unit: 'd' }, now, log: console }),
    ).rejects.toThrow(/^RETENTION=1d is shorter than a month, so nothing is deleted/);
    expect((await opened.db.query('select 1 from public.bookings')).rows).toHaveLength(1);
  });
});
