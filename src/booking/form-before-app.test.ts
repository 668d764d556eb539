/**
 * The pre-rendered booking form before the app, on a DOM of its own
 * (happy-dom): opened, a send held and handed to the app, an assistant's
 * submit answered once the app has its outcome. The browser tests type and
 * send in Chromium with the app held back (e2e/keyboard.spec.ts).
 */
import { Window } from 'happy-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { bookingFormClass } from '../boot/protocol.ts';

type FormBeforeApp = typeof import('./form-before-app.ts');

/** Each test gets the module afresh: it holds one page's state. */
async function freshModule(): Promise<FormBeforeApp> {
  vi.resetModules();
  return import('./form-before-app.ts');
}

function pageWithForm(): { document: Document; form: HTMLFormElement } {
  const window = new Window({ url: 'https://clinic.example/#contact' });
  const document = window.document as unknown as Document;
  document.body.innerHTML = `<main><form class="${bookingFormClass}" inert=""><input name="fullName"><button type="submit">Send</button></form></main>`;
  return { document, form: document.querySelector('form')! };
}

function submitEvent(
  document: Document,
  agent?: { respondWith: (reply: Promise<string>) => void },
): Event {
  const event = new document.defaultView!.Event('submit', { bubbles: true, cancelable: true });
  if (agent) Object.assign(event, { agentInvoked: true, respondWith: agent.respondWith });
  return event;
}

describe('the booking form before the app', () => {
  let module: FormBeforeApp;
  beforeEach(async () => {
    module = await freshModule();
  });

  it('is made usable, and a send is held, not made by the browser, and asks for the app', () => {
    const { document, form } = pageWithForm();
    const asked = vi.fn();
    module.openFormBeforeApp(document, asked);
    expect(form.inert).toBe(false);

    const event = submitEvent(document);
    form.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(asked).toHaveBeenCalledTimes(1);

    // Sent twice before the app: still one send for it to make.
    form.dispatchEvent(submitEvent(document));
    expect(module.takeHeldSend()).toEqual({ reply: null });
  });

  it('hands nothing to the app when nothing was sent, and leaves later sends to it', () => {
    const { document, form } = pageWithForm();
    module.openFormBeforeApp(document, () => {});
    expect(module.takeHeldSend()).toBeNull();

    const event = submitEvent(document);
    form.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
    expect(module.takeHeldSend()).toBeNull();
  });

  it("answers an assistant's submit with the outcome the app reports", async () => {
    const { document, form } = pageWithForm();
    module.openFormBeforeApp(document, () => {});
    let answer: Promise<string> | undefined;
    form.dispatchEvent(submitEvent(document, { respondWith: (reply) => (answer = reply) }));
    expect(answer).toBeInstanceOf(Promise);

    const held = module.takeHeldSend();
    held?.reply?.('Sent.');
    await expect(answer).resolves.toBe('Sent.');
  });

  it('leaves a form that is not inert (rendered by the app) alone', () => {
    const { document, form } = pageWithForm();
    form.inert = false;
    const asked = vi.fn();
    module.openFormBeforeApp(document, asked);
    form.dispatchEvent(submitEvent(document));
    expect(asked).not.toHaveBeenCalled();
  });
});
