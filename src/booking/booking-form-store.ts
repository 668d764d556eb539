import { useSyncExternalStore } from 'react';
import type { BookingField } from '../../supabase/functions/_shared/core/booking-rules.ts';
import { toBookingRow } from '../../supabase/functions/_shared/core/booking-row.ts';
import { isPageOutdated, isThrottled, sendBookingRequest } from './booking-api.ts';
import { formValues } from './form-before-app.ts';
import { keepState, readKeptForm } from './kept-in-tab.ts';
import {
  bookingFormReducer,
  initialBookingFormState,
  type BookingFormEvent,
  type BookingFormState,
} from './submission.ts';

/**
 * The booking form's state, kept beside the form rather than in it: the view
 * that shows the form is taken off the page when the visitor moves to another,
 * and a request sent before that must still end in the thanks or the failure
 * message (with what was typed) when they come back, never silently. It is
 * kept in the tab across a reload until it is sent (kept-in-tab.ts).
 */

let state = keptState();
const listeners = new Set<() => void>();
/** The send on its way, which ends in the state its outcome makes. */
let inFlight: Promise<BookingFormState> | undefined;

/**
 * A new request's id, a version 4 UUID. From random bytes where
 * crypto.randomUUID is missing: Safari has it from 15.4, and only on HTTPS (a
 * deployer's first try at http://<address>:3000).
 */
export function newRequestId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 9562's variant
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return hex.replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
}

/** The state as it was kept in this tab before a reload (kept-in-tab.ts), or a new one. */
function keptState(): BookingFormState {
  const kept = readKeptForm();
  if (!kept) return initialBookingFormState;
  return {
    ...initialBookingFormState,
    ...kept,
    values: { ...initialBookingFormState.values, ...kept.values },
  };
}

/** Applies an event as submission.ts decides; events that make no sense change nothing. */
export function dispatchBookingForm(event: BookingFormEvent): void {
  const next = bookingFormReducer(state, event);
  if (next === state) return;
  state = next;
  keepState(state);
  for (const listener of listeners) listener();
}

/**
 * Takes the values `form` holds into the form's state, each field as an edit
 * (one that changes nothing changes nothing): what was typed into the
 * pre-rendered form before the app came, emptied fields too, or filled in by a
 * browser assistant without typing.
 */
export function takeFormValues(form: HTMLFormElement): void {
  for (const [field, value] of Object.entries(formValues(form)) as [BookingField, string][]) {
    dispatchBookingForm({ type: 'edited', field, value });
  }
}

/**
 * Submits what the form holds: sends it when it is valid (with `trap`, the
 * field only robots fill, when filled), whether or not the form is still on
 * the page when the answer comes. `newRequestId` is used unless the request is
 * the last one sent: a retry of the same request carries the same id, so it
 * cannot be stored twice.
 */
export function submitBookingForm(
  newRequestId: string,
  trap: string,
  /** Told the state the submit ends in: refused, sent or failed (an assistant's answer). */
  onSettled?: (settled: BookingFormState) => void,
): void {
  const before = state;
  dispatchBookingForm({ type: 'submitted', newRequestId, at: Date.now() });
  // A submit while the request is on its way is answered with that send's outcome.
  if (before.status === 'submitting') return void inFlight?.then(onSettled);
  if (state.status !== 'submitting') return onSettled?.(state);
  const row = toBookingRow(state.values, state.requestId!);
  inFlight = sendBookingRequest(trap ? { ...row, website: trap } : row).then(
    () => settle({ type: 'succeeded' }),
    (error: unknown) => {
      console.error('The booking request could not be sent:', error);
      const reason = isThrottled(error)
        ? 'throttled'
        : isPageOutdated(error)
          ? 'outdated'
          : 'error';
      return settle({ type: 'failed', reason });
    },
  );
  void inFlight.then(onSettled);
}

function settle(event: BookingFormEvent): BookingFormState {
  dispatchBookingForm(event);
  return state;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The form's state, re-rendering on each change; as new while the page is pre-rendered. */
export function useBookingFormState(): BookingFormState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => initialBookingFormState,
  );
}
