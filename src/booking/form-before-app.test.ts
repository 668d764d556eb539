/**
 * The pre-rendered booking form before the app, on a DOM of its own
 * (happy-dom): a send held and handed to the app, one the boot script held
 * taken over, an assistant's submit answered once the app has its outcome. The browser tests type and
 * send in Chromium with the app held back (e2e/keyboard.spec.ts).
 */
import { Window } from 'happy-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { bookingFormClass, sendAskedAttribute } from '../boot/protocol.ts';

type FormBeforeApp = typeof import('./form-before-app.ts');

/** Each test gets the module afresh: it holds one page's state. */
async function freshModule(): Promise<FormBeforeApp> {
  vi.resetModules();
  return import('./form-before-app.ts');
}

function pageWithForm(): { document: Document; form: HTMLFormElement } {
  const window = new Window({ url: 'https://clinic.example/#contact' });
  const document = window.document as unknown as Document;
  document.body.innerHTML = `<main><form class="${bookingFormClass}"><input name="fullName"><button type="submit">Send</button></form></main>`;
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

  it('holds a send, not made by the browser, and asks for the app', () => {
    const { document, form } = pageWithForm();
    const asked = vi.fn();
    module.holdSendsForApp(document, asked);
    expect(asked).not.toHaveBeenCalled();

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
    module.holdSendsForApp(document, () => {});
    expect(module.takeHeldSend()).toBeNull();

    const event = submitEvent(document);
    form.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
    expect(module.takeHeldSend()).toBeNull();
  });

  it("answers an assistant's submit with the outcome the app reports", async () => {
    const { document, form } = pageWithForm();
    module.holdSendsForApp(document, () => {});
    let answer: Promise<string> | undefined;
    form.dispatchEvent(submitEvent(document, { respondWith: (reply) => (answer = reply) }));
    expect(answer).toBeInstanceOf(Promise);

    const held = module.takeHeldSend();
    held?.reply?.('Sent.');
    await expect(answer).resolves.toBe('Sent.');
  });

  it('takes over a send the boot script held before the first script had run', () => {
    const { document } = pageWithForm();
    document.documentElement.setAttribute(sendAskedAttribute, '');
    const asked = vi.fn();
    module.holdSendsForApp(document, asked);
    expect(asked).toHaveBeenCalledTimes(1);
    expect(document.documentElement.hasAttribute(sendAskedAttribute)).toBe(false);
    expect(module.takeHeldSend()).toEqual({ reply: null });
  });

  it('holds nothing once the app has adopted the form', () => {
    const { document, form } = pageWithForm();
    module.takeHeldSend();
    const asked = vi.fn();
    module.holdSendsForApp(document, asked);
    const event = submitEvent(document);
    form.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
    expect(asked).not.toHaveBeenCalled();
  });
});
