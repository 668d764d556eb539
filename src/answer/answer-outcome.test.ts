import { describe, expect, it } from 'vitest';
import { answerOutcome, formatAnsweredAt } from './answer-outcome.ts';

describe('answerOutcome', () => {
  it('reads the reference and the time of a marked request', () => {
    expect(
      answerOutcome(200, { reference: '5F0C2A8E', answered_at: '2026-11-24T13:05:00.123+00:00' }),
    ).toEqual({
      kind: 'answered',
      reference: '5F0C2A8E',
      answeredAt: new Date('2026-11-24T13:05:00.123Z'),
    });
  });

  it('reads a mark taken back by Undo, whether or not there was one', () => {
    for (const wasAnswered of [true, false]) {
      expect(answerOutcome(200, { reference: '5F0C2A8E', was_answered: wasAnswered })).toEqual({
        kind: 'unmarked',
        reference: '5F0C2A8E',
      });
    }
  });

  it.each([
    [403, 'PT403', 'invalid'],
    [410, 'PT410', 'expired'],
    [404, 'PT404', 'not-stored'],
  ])('reads a %i answer with code %s as %j', (status, code, kind) => {
    const body = { code, message: 'refused', details: null, hint: null };
    expect(answerOutcome(status, body)).toEqual({ kind });
  });

  it.each([
    ['a server error', 500, { code: '57P01', message: 'terminating connection' }],
    ['a missing function', 404, { code: 'PGRST202', message: 'Could not find the function' }],
    ['no JSON at all', 502, undefined],
    ['a success without a mark', 200, { reference: '5F0C2A8E' }],
    ['a success with a time that is none', 200, { reference: '5F0C2A8E', answered_at: 'soon' }],
  ])('takes %s as a failure worth trying again', (_, status, body) => {
    expect(answerOutcome(status, body)).toEqual({ kind: 'failed' });
  });
});

describe('formatAnsweredAt', () => {
  it('shows the time in UK time, summer time included', () => {
    expect(formatAnsweredAt(new Date('2026-11-24T13:05:00Z'), 'en-GB', 'Europe/London')).toBe(
      'Tuesday, 24 November 2026 at 13:05',
    );
    expect(formatAnsweredAt(new Date('2026-07-01T13:05:00Z'), 'en-GB', 'Europe/London')).toBe(
      'Wednesday, 1 July 2026 at 14:05',
    );
  });
});
