import {
  emptyBookingForm,
  hasFailures,
  validateBooking,
  type BookingFailures,
  type BookingField,
  type BookingForm,
} from '../../supabase/functions/_shared/core/booking-rules.ts';

/** Where a booking request stands (specification, section 4). */
type SubmissionStatus = 'idle' | 'submitting' | 'success' | 'error';

/** Why sending failed: an error, or too many requests in a short time. */
type FailureReason = 'error' | 'throttled';

export interface BookingFormState {
  values: BookingForm;
  failures: BookingFailures;
  status: SubmissionStatus;
  /**
   * The id the next request will carry. It stays the same while the form content
   * is unchanged, so a retry after a lost answer cannot store a second row.
   */
  requestId: string | null;
  /** Counts refused submits, so each one can move focus to the first invalid field. */
  refusedSubmits: number;
  /** Why the last send failed, while the status is 'error'. */
  failureReason: FailureReason;
}

export type BookingFormEvent =
  | { type: 'edited'; field: BookingField; value: string }
  /** `newRequestId` is used only if the form has no id yet; passed in to keep the reducer pure. */
  | { type: 'submitted'; newRequestId: string }
  | { type: 'succeeded' }
  | { type: 'failed'; reason: FailureReason }
  /** The thank-you modal was closed. */
  | { type: 'dismissed' };

export const initialBookingFormState: BookingFormState = {
  values: emptyBookingForm,
  failures: {},
  status: 'idle',
  requestId: null,
  refusedSubmits: 0,
  failureReason: 'error',
};

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
        requestId: null,
      };
    }
    case 'submitted': {
      if (state.status === 'submitting') return state;
      const failures = validateBooking(state.values);
      if (hasFailures(failures)) {
        return { ...state, failures, status: 'idle', refusedSubmits: state.refusedSubmits + 1 };
      }
      return {
        ...state,
        failures: {},
        status: 'submitting',
        requestId: state.requestId ?? event.newRequestId,
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
      };
    case 'failed':
      if (state.status !== 'submitting') return state;
      return { ...state, status: 'error', failureReason: event.reason };
    case 'dismissed':
      if (state.status !== 'success') return state;
      return { ...state, status: 'idle' };
  }
}
