import {
  bookingFields,
  emptyBookingForm,
  hasFailures,
  storedValue,
  validateBooking,
  type BookingFailures,
  type BookingField,
  type BookingForm,
} from '../../supabase/functions/_shared/core/booking-rules.ts';
import { practice } from '../../supabase/functions/_shared/content/practice.ts';

/** Where a booking request stands (specification, section 4). */
type SubmissionStatus = 'idle' | 'submitting' | 'success' | 'error';

/**
 * Why sending failed: an error, too many requests in a short time, or a page
 * whose code for the send did not come, which must be reloaded to send.
 */
type FailureReason = 'error' | 'throttled' | 'outdated';

export interface BookingFormState {
  values: BookingForm;
  failures: BookingFailures;
  status: SubmissionStatus;
  /**
   * The id of the last send, and the request it carried as stored (`sentRequest`):
   * a send of the same request carries the same id, so a retry after a lost
   * answer cannot store a second row, even where a field was touched meanwhile
   * (a space added by the keyboard's suggestion, a letter deleted and typed again).
   */
  requestId: string | null;
  sentRequest: string | null;
  /** When `requestId` was first sent, in ms since 1970: it is kept for `sameRequestForMs`. */
  sentAt: number | null;
  /** Counts refused submits, so each one can move focus to the first invalid field. */
  refusedSubmits: number;
  /** Why the last send failed, while the status is 'error'. */
  failureReason: FailureReason;
}

export type BookingFormEvent =
  | { type: 'edited'; field: BookingField; value: string }
  /**
   * `newRequestId` is used unless the request is the last one sent, within
   * `sameRequestForMs` of `at` (now, in ms); both passed in to keep the reducer pure.
   */
  | { type: 'submitted'; newRequestId: string; at: number }
  | { type: 'succeeded' }
  | { type: 'failed'; reason: FailureReason }
  /** The thank-you modal was closed. */
  | { type: 'dismissed' };

export const initialBookingFormState: BookingFormState = {
  values: emptyBookingForm,
  failures: {},
  status: 'idle',
  requestId: null,
  sentRequest: null,
  sentAt: null,
  refusedSubmits: 0,
  failureReason: 'error',
};

/**
 * How long a send of the last request sent is taken for a retry of it, with
 * its id (stored at most once): the practice's reply window, within which it
 * answers the first. After, in a tab kept open or kept for weeks, the same
 * details are a new request, which the first one's id would have the database
 * take for stored already, and drop.
 */
export const sameRequestForMs = practice.replyWithinHours * 3_600_000;

/** The request as it is sent and stored (booking-row.ts), to compare with the last sent. */
function storedRequest(values: BookingForm): string {
  return JSON.stringify(bookingFields.map((field) => storedValue(field, values[field])));
}

/** The form's transitions. Events that make no sense in the current state change nothing. */
export function bookingFormReducer(
  state: BookingFormState,
  event: BookingFormEvent,
): BookingFormState {
  switch (event.type) {
    case 'edited': {
      // An edit that changes nothing (the form adopting the values it shows) keeps the failures and the id.
      if (state.status === 'submitting' || state.values[event.field] === event.value) return state;
      const { [event.field]: _cleared, ...failures } = state.failures;
      return {
        ...state,
        values: { ...state.values, [event.field]: event.value },
        failures,
        status: 'idle',
      };
    }
    case 'submitted': {
      if (state.status === 'submitting') return state;
      const failures = validateBooking(state.values);
      if (hasFailures(failures)) {
        return { ...state, failures, status: 'idle', refusedSubmits: state.refusedSubmits + 1 };
      }
      const request = storedRequest(state.values);
      const again =
        state.sentRequest === request &&
        state.sentAt !== null &&
        event.at - state.sentAt < sameRequestForMs;
      return {
        ...state,
        failures: {},
        status: 'submitting',
        requestId: again ? state.requestId : event.newRequestId,
        sentRequest: request,
        sentAt: again ? state.sentAt : event.at,
      };
    }
    case 'succeeded':
      if (state.status !== 'submitting') return state;
      return {
        ...state,
        values: emptyBookingForm,
        failures: {},
        status: 'success',
        requestId: null,
        sentRequest: null,
        sentAt: null,
      };
    case 'failed':
      if (state.status !== 'submitting') return state;
      return { ...state, status: 'error', failureReason: event.reason };
    case 'dismissed':
      if (state.status !== 'success') return state;
      return { ...state, status: 'idle' };
  }
}
