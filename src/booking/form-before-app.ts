/**
 * The pre-rendered booking form before the app has adopted it.
 *
 * The booking page is shown from the HTML at once, and the app (React) comes
 * only at the visitor's first touch, key or focus (src/main.tsx): the form
 * works meanwhile as plain HTML. Its fields take what is typed, and the app,
 * once it has adopted them, takes their values as they are (booking-form.tsx).
 * A send asked for before then is held (`holdSendsForApp`; by the boot script
 * before the first script has run) and made by the app once it has adopted
 * the form (`takeHeldSend`): the browser never sends the form itself (it would
 * put what was typed in the address). A send the app is slow to make is
 * noticed in the form (src/boot/send-stalled.ts).
 *
 * This module is shared by the first script and the app: one instance holds
 * what one hands to the other.
 */
import { bookingFormClass, sendAskedAttribute } from '../boot/protocol.ts';
import { noticeIfSendStalls } from '../boot/send-stalled.ts';
import {
  bookingFields,
  type BookingForm,
} from '../../supabase/functions/_shared/core/booking-rules.ts';
import { keepForm, readKeptForm } from './kept-in-tab.ts';

/** A submit made by a browser assistant (WebMCP draft): it can be answered with the outcome. */
export interface AgentSubmitEvent extends SubmitEvent {
  agentInvoked?: boolean;
  respondWith?: (reply: Promise<string>) => void;
}

/** A send asked for before the app: `reply` answers the assistant that asked, if one did. */
interface HeldSend {
  reply: ((reply: string) => void) | null;
}

let adopted = false;
let held: HeldSend | null = null;
/** What a held send disabled, as the app does while it sends, for the app to enable. */
let waiting: (HTMLFieldSetElement | HTMLButtonElement)[] = [];

/**
 * The form looks as it does while the app sends: on a slow connection the
 * app's code may take seconds, and a button that did nothing would be tapped
 * again. Enabled again when the app takes the send (`takeHeldSend`), since a
 * send the app refuses (a field to correct) never disables them.
 */
function showSendWaiting(form: HTMLFormElement): void {
  waiting = [
    ...form.querySelectorAll<HTMLFieldSetElement | HTMLButtonElement>('fieldset, [type="submit"]'),
  ];
  for (const element of waiting) element.disabled = true;
}

/**
 * Holds a send of the pre-rendered booking form on screen, if any, until the
 * app has adopted it, and calls `onSendAsked` so that the app comes to make
 * it: from now on, and for a send the boot script held before.
 */
export function holdSendsForApp(document: Document, onSendAsked: () => void): void {
  const form = document.querySelector<HTMLFormElement>(`form.${bookingFormClass}`);
  if (!form || adopted) return;
  giveBackKeptValues(form);
  form.addEventListener('submit', (event: AgentSubmitEvent) => {
    if (adopted) return;
    event.preventDefault();
    held ??= { reply: null };
    if (event.agentInvoked && typeof event.respondWith === 'function') {
      const send = held;
      event.respondWith(new Promise<string>((resolve) => (send.reply = resolve)));
    }
    noticeIfSendStalls(document);
    showSendWaiting(form);
    onSendAsked();
  });
  const html = document.documentElement;
  if (html.hasAttribute(sendAskedAttribute)) {
    html.removeAttribute(sendAskedAttribute);
    held ??= { reply: null };
    showSendWaiting(form);
    onSendAsked();
  }
}

/**
 * Called by the app once it has adopted the form: what the form sends from
 * now on is the app's to send, and a send held until now is handed over.
 */
export function takeHeldSend(): HeldSend | null {
  adopted = true;
  for (const element of waiting) element.disabled = false;
  waiting = [];
  const send = held;
  held = null;
  return send;
}

/** What the form's fields hold, by field (a field it lacks left out). */
export function formValues(form: HTMLFormElement): Partial<BookingForm> {
  return Object.fromEntries(
    bookingFields.flatMap((field) => {
      const input = form.elements.namedItem(field) as HTMLInputElement | null;
      return input ? [[field, input.value]] : [];
    }),
  );
}

/**
 * Fills the form's empty fields with what was kept in this tab before a
 * reload (kept-in-tab.ts), and keeps what is typed until the app adopts the
 * form, whose state keeps it from then on.
 */
function giveBackKeptValues(form: HTMLFormElement): void {
  const kept = readKeptForm();
  for (const [field, value] of Object.entries(kept?.values ?? {})) {
    const input = form.elements.namedItem(field) as HTMLInputElement | null;
    if (input?.value === '' && value) input.value = value;
  }
  // Before the app, only the values change: the id of a send is the app's.
  const sent = { requestId: null, sentRequest: null, sentAt: null, ...kept };
  const keepValues = () => {
    if (!adopted) keepForm({ ...sent, values: formValues(form) });
  };
  // Now too: what was typed before this script came (a slow connection) is kept.
  keepValues();
  form.addEventListener('input', keepValues);
}
