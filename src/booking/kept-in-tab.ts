import {
  bookingFields,
  type BookingForm,
} from '../../supabase/functions/_shared/core/booking-rules.ts';
import type { BookingFormState } from './submission.ts';

/**
 * What the visitor typed in the booking form, kept in this browser tab
 * (sessionStorage) until it is sent, with the id of a send whose answer was
 * lost: a reload gives it back. A phone's browser reloads a tab it put away
 * while the visitor looked up their Instagram name, and a page left open
 * while the site was updated must be reloaded to send. Nothing leaves the
 * device; closing the tab deletes it. Written by the pre-rendered form before
 * the app (form-before-app.ts), then by the form's state (booking-form-store.ts).
 */
export type KeptForm = Pick<BookingFormState, 'requestId' | 'sentRequest' | 'sentAt'> & {
  values: Partial<BookingForm>;
};

const storageKey = 'booking-form';

/** What is kept, or undefined when nothing is (or storage is off, as in some private modes). */
export function readKeptForm(): KeptForm | undefined {
  let kept: unknown;
  try {
    kept = JSON.parse(sessionStorage.getItem(storageKey) ?? 'null');
  } catch {
    return undefined;
  }
  if (typeof kept !== 'object' || kept === null) return undefined;
  const { values, requestId, sentRequest, sentAt } = kept as Record<string, unknown>;
  const stored = (values ?? {}) as Record<string, unknown>;
  const fields = bookingFields.filter((field) => typeof stored[field] === 'string');
  return {
    values: Object.fromEntries(fields.map((field) => [field, stored[field]])),
    requestId: typeof requestId === 'string' ? requestId : null,
    sentRequest: typeof sentRequest === 'string' ? sentRequest : null,
    sentAt: typeof sentAt === 'number' ? sentAt : null,
  };
}

/** Keeps what the form's state holds, or forgets it once sent. */
export function keepState({
  status,
  values,
  requestId,
  sentRequest,
  sentAt,
}: BookingFormState): void {
  keepForm(status === 'success' ? undefined : { values, requestId, sentRequest, sentAt });
}

/** Keeps `form`, or forgets what was kept: when undefined, or with nothing typed and no send's id. */
export function keepForm(form: KeptForm | undefined): void {
  const worth =
    form !== undefined &&
    (form.requestId !== null || Object.values(form.values).some((value) => value !== ''));
  try {
    if (worth) sessionStorage.setItem(storageKey, JSON.stringify(form));
    else sessionStorage.removeItem(storageKey);
  } catch {
    // Storage off or full: the form works as before, without surviving a reload.
  }
}
