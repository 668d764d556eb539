import { useCallback, useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { CircleAlert } from '../components/icons/circle-alert.ts';
import { CircleCheck } from '../components/icons/circle-check.ts';
import {
  bookingFieldRules,
  bookingFields,
  isRequired,
  messageFor,
  type BookingField,
} from '../../supabase/functions/_shared/core/booking-rules.ts';
import { site } from '../content/site.ts';
import { Modal } from '../components/modal.tsx';
import {
  dispatchBookingForm as dispatch,
  newRequestId,
  submitBookingForm,
  takeFormValues,
  useBookingFormState,
} from './booking-form-store.ts';
import type { BookingFormState } from './submission.ts';
import { bookingFormClass } from '../boot/protocol.ts';
import { takeHeldSend, type AgentSubmitEvent } from './form-before-app.ts';

const copy = site.bookingForm;
const { phone } = site.contactDetails;

/** The practice's number, to dial with a tap when a send fails or waits too long. */
const phoneLink = (
  <a className="inline-link" href={`tel:${phone.international}`}>
    {phone.display}
  </a>
);
const failureFallbackId = 'booking-failure-fallback';

/** What the form says of a failed send, by its reason (submission.ts). */
const failureMessages = {
  error: copy.failure,
  throttled: copy.throttled,
  outdated: copy.outdated,
} as const;

/** What an assistant that submitted the form is told of the state it ended in. */
function agentReplyFor(settled: BookingFormState): string {
  const { replies } = copy.agentTool;
  if (settled.status === 'success') return replies.sent;
  if (settled.status === 'error') {
    const reason = settled.failureReason;
    return reason === 'error' ? replies.failed : failureMessages[reason];
  }
  return replies.refused(
    bookingFields
      .flatMap((field) =>
        settled.failures[field] ? [messageFor(field, settled.failures[field])] : [],
      )
      .join('; '),
  );
}

/**
 * The booking request form: the component renders and dispatches; submission.ts
 * decides, and its state outlives the view (booking-form-store.ts).
 */
export function BookingForm() {
  const state = useBookingFormState();
  const formRef = useRef<HTMLFormElement>(null);
  const inputs = useRef<Partial<Record<BookingField, HTMLInputElement | null>>>({});
  const failureRef = useRef<HTMLParagraphElement>(null);
  const trapRef = useRef<HTMLInputElement>(null);
  /** The assistant that asked for a send before the app had adopted the form, to be answered. */
  const heldReply = useRef<((reply: string) => void) | null>(null);
  const submitting = state.status === 'submitting';
  // Pre-rendered, the form works as plain HTML before the app adopts it
  // (form-before-app.ts): a visitor types into it, and a browser assistant
  // fills it in as a tool. Adopted, it keeps what was typed: its values become
  // the form's state before any render could write over them.
  useLayoutEffect(() => {
    if (formRef.current) takeFormValues(formRef.current);
  }, []);

  // A send asked for before the app had adopted the form is made now.
  useEffect(() => {
    const held = takeHeldSend();
    if (!held) return;
    heldReply.current = held.reply;
    // The submit event requestSubmit would send: the form is not validated by
    // the browser, and requestSubmit is Safari's from 16 only.
    formRef.current?.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
  }, []);

  // Thanks seen, then the view left: they do not come back with the view.
  useEffect(() => () => dispatch({ type: 'dismissed' }), []);

  // After a refused submit, take the visitor to the first field to correct
  // (not one made before the view was left and shown again).
  const seenRefusals = useRef(state.refusedSubmits);
  useEffect(() => {
    if (state.refusedSubmits === seenRefusals.current) return;
    seenRefusals.current = state.refusedSubmits;
    const first = bookingFields.find((field) => state.failures[field]);
    if (first) inputs.current[first]?.focus();
    // Only a new refused submit moves focus, not every change of the failures.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.refusedSubmits]);

  // The disabled button lost focus while sending: put it on the message instead;
  // and once the thank-you modal is closed (and has restored focus), on the empty form.
  // An outcome that came while the view was away is shown, without taking focus.
  const previousStatus = useRef(state.status);
  useEffect(() => {
    if (state.status === previousStatus.current) return;
    if (state.status === 'error') failureRef.current?.focus();
    if (previousStatus.current === 'success' && state.status === 'idle')
      inputs.current.fullName?.focus();
    previousStatus.current = state.status;
  }, [state.status]);

  const closeThankYou = useCallback(() => dispatch({ type: 'dismissed' }), []);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // An assistant may have filled the fields without typing into them.
    takeFormValues(event.currentTarget);
    const submit = event.nativeEvent as AgentSubmitEvent;
    let reply = heldReply.current;
    heldReply.current = null;
    if (submit.agentInvoked && typeof submit.respondWith === 'function') {
      submit.respondWith(new Promise<string>((resolve) => (reply = resolve)));
    }
    // Answered from the store, so that the answer comes though the view is left meanwhile.
    submitBookingForm(
      newRequestId(),
      trapRef.current?.value.trim() ?? '',
      reply ? (settled) => reply?.(agentReplyFor(settled)) : undefined,
    );
  };

  const failureCount = Object.keys(state.failures).length;
  // The count as the refused send found it: a live count would be read out
  // again at each correction, over the visitor's typing.
  const [refused, setRefused] = useState({ submits: 0, count: 0 });
  if (refused.submits !== state.refusedSubmits) {
    setRefused({ submits: state.refusedSubmits, count: failureCount });
  }
  const announcement = submitting
    ? copy.sendingAnnouncement
    : failureCount > 0
      ? copy.fixFieldsAnnouncement(refused.count)
      : '';

  return (
    <>
      <form
        className={bookingFormClass}
        noValidate
        onSubmit={onSubmit}
        aria-describedby="booking-required-note"
        ref={formRef}
        // In the HTML as they stay: a browser checks a form as a tool whenever
        // one of these changes, and would report one named but not yet
        // described, or the reverse.
        toolname={copy.agentTool.name}
        tooldescription={copy.agentTool.description}
      >
        <p id="booking-required-note" className="form-note">
          {copy.requiredNote}
        </p>
        <fieldset className="form-fields" disabled={submitting}>
          <legend className="visually-hidden">{site.contact.heading}</legend>
          {bookingFields.map((field) => {
            const id = `booking-${field}`;
            const failure = state.failures[field];
            const hint = field === 'phone' || field === 'instagram' ? copy.hints[field] : undefined;
            const describedBy = [failure ? `${id}-error` : null, hint ? `${id}-hint` : null]
              .filter(Boolean)
              .join(' ');
            const required = isRequired(field);
            return (
              <div className="field" key={field} data-invalid={failure ? true : undefined}>
                <label htmlFor={id} className="field-label">
                  {copy.labels[field]}
                  {required ? (
                    <span className="field-required" aria-hidden="true">
                      {' *'}
                    </span>
                  ) : null}
                </label>
                {hint ? (
                  <p id={`${id}-hint`} className="field-hint">
                    {hint}
                  </p>
                ) : null}
                <input
                  ref={(element) => {
                    inputs.current[field] = element;
                  }}
                  id={id}
                  name={field}
                  className="field-input"
                  {...bookingFieldRules[field].input}
                  required={required}
                  placeholder={field === 'instagram' ? copy.instagramPlaceholder : undefined}
                  value={state.values[field]}
                  onChange={(event) =>
                    dispatch({ type: 'edited', field, value: event.target.value })
                  }
                  aria-invalid={failure ? true : undefined}
                  aria-describedby={describedBy || undefined}
                  spellCheck={field === 'fullName' ? undefined : false}
                  toolparamdescription={copy.agentTool.fields[field]}
                />
                {failure ? (
                  <p id={`${id}-error`} className="field-error">
                    <CircleAlert aria-hidden="true" className="field-error-icon" />
                    {messageFor(field, failure)}
                  </p>
                ) : null}
              </div>
            );
          })}
        </fieldset>

        {/* A field only robots fill: out of sight and out of the accessibility tree. */}
        <div className="trap" aria-hidden="true">
          <label htmlFor="booking-website">{copy.trap.label}</label>
          <input
            ref={trapRef}
            id="booking-website"
            name="website"
            type="text"
            tabIndex={-1}
            autoComplete="off"
            defaultValue=""
            toolparamdescription={copy.trap.agentDescription}
          />
        </div>

        {state.status === 'error' ? (
          <>
            {/* Focused on failure: the phone's fallback is read out with it. */}
            <p
              className="form-failure"
              role="alert"
              tabIndex={-1}
              ref={failureRef}
              aria-describedby={failureFallbackId}
            >
              <CircleAlert aria-hidden="true" className="form-failure-icon" />
              {failureMessages[state.failureReason]}
            </p>
            <p className="form-failure-fallback" id={failureFallbackId}>
              {copy.failureFallback} {phoneLink}.
            </p>
          </>
        ) : null}

        {/* In the page from the start, shown by the style sheet only while a
            send waits too long for the app (src/boot/send-stalled.ts). */}
        <p className="form-failure form-send-stalled" role="alert">
          <CircleAlert aria-hidden="true" className="form-failure-icon" />
          <span>
            {copy.sendStalled} {phoneLink}.
          </span>
        </p>

        <button type="submit" className="button button-primary button-block" disabled={submitting}>
          {submitting ? copy.submitting : copy.submit}
        </button>
        <p className="visually-hidden" role="status" aria-live="polite">
          {announcement}
        </p>
        <p className="form-privacy">{copy.privacy}</p>
      </form>

      <Modal
        isOpen={state.status === 'success'}
        onClose={closeThankYou}
        title={copy.success.title}
        icon={<CircleCheck aria-hidden="true" className="modal-icon" />}
      >
        {copy.success.paragraphs.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
      </Modal>
    </>
  );
}
