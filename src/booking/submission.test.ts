import { describe, expect, it } from 'vitest';
import {
  bookingFormReducer,
  initialBookingFormState,
  sameRequestForMs,
  type BookingFormEvent,
  type BookingFormState,
} from './submission.ts';

const filled: BookingFormState = {
  ...initialBookingFormState,
  values: {
    fullName: 'Aisha Khan',
    phone: '07700 900123',
    email: 'aisha@example.com',
    instagram: '',
  },
};
/** When the first request was sent, in ms: the retries below come a minute later. */
const sentAt = Date.parse('2026-11-28T10:00:00Z');
const submitting: BookingFormState = bookingFormReducer(filled, {
  type: 'submitted',
  newRequestId: 'id-1',
  at: sentAt,
});
const succeeded: BookingFormState = { ...initialBookingFormState, status: 'success' };
const failed: BookingFormState = { ...submitting, status: 'error' };
const failedEvent: BookingFormEvent = { type: 'failed', reason: 'error' };
const succeedEvent: BookingFormEvent = { type: 'succeeded' };
const dismiss: BookingFormEvent = { type: 'dismissed' };
const sending = (requestId: string) => ({ status: 'submitting', requestId }) as const;
const idle = { status: 'idle' } as const;

const submit: BookingFormEvent = { type: 'submitted', newRequestId: 'id-new', at: sentAt + 60_000 };
const edit = (field: 'fullName' | 'phone', value: string): BookingFormEvent => ({
  type: 'edited',
  field,
  value,
});

describe('bookingFormReducer', () => {
  it.each<[string, BookingFormState, BookingFormEvent, Partial<BookingFormState>]>([
    ['a valid submit starts sending with a new id', filled, submit, sending('id-new')],
    [
      'an invalid submit stays idle and shows the failures',
      initialBookingFormState,
      submit,
      {
        ...idle,
        failures: { fullName: 'required', phone: 'required', email: 'required' },
        refusedSubmits: 1,
      },
    ],
    ['a second submit while sending is ignored', submitting, submit, submitting],
    ['success clears the form and forgets the id', submitting, succeedEvent, succeeded],
    [
      'failure keeps what was typed and the id',
      submitting,
      failedEvent,
      { status: 'error', values: filled.values, requestId: 'id-1' },
    ],
    ['a retry after a failure reuses the id', failed, submit, { ...sending('id-1'), sentAt }],
    [
      'the same request sent again after the reply window is a new one, with a new id',
      failed,
      { ...submit, at: sentAt + sameRequestForMs },
      sending('id-new'),
    ],
    ['editing after a failure returns to idle', failed, edit('phone', '07700 900124'), idle],
    ['an edit to the same value changes nothing', failed, edit('phone', '07700 900123'), failed],
    ['editing while sending is ignored', submitting, edit('fullName', 'X'), submitting],
    ['closing the thank-you modal returns to idle', succeeded, dismiss, idle],
    ['editing after success returns to idle', succeeded, edit('fullName', 'A'), idle],
    ['a late success when not sending is ignored', filled, succeedEvent, filled],
    ['a late failure when not sending is ignored', succeeded, failedEvent, succeeded],
    ['dismissing when nothing was sent is ignored', failed, dismiss, failed],
    [
      'too many requests is a failure of its own kind',
      submitting,
      { type: 'failed', reason: 'throttled' },
      { status: 'error', failureReason: 'throttled', values: filled.values },
    ],
  ])('%s', (_name, state, event, expected) => {
    expect(bookingFormReducer(state, event)).toMatchObject(expected);
  });

  it.each<[string, string, BookingFormEvent[]]>([
    ['a space added at the end', 'id-1', [edit('fullName', 'Aisha Khan ')]],
    [
      'a letter deleted and typed again',
      'id-1',
      [edit('phone', '07700 90012'), edit('phone', '07700 900123')],
    ],
    ['another phone number', 'id-new', [edit('phone', '07700 900124')]],
  ])('a retry after a failure and %s carries %s', (_name, id, edits) => {
    const edited = edits.reduce(bookingFormReducer, failed);
    expect(bookingFormReducer(edited, submit)).toMatchObject(sending(id));
  });

  it('clears only the edited field’s message', () => {
    const refused = bookingFormReducer(initialBookingFormState, submit);
    const next = bookingFormReducer(refused, edit('phone', '0'));
    expect(next.failures).toEqual({ fullName: 'required', email: 'required' });
    expect(next.values.phone).toBe('0');
  });
});
