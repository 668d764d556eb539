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

/** The pre-rendered form, and `send`, which submits it and answers whether the submit was held back. */
function pageWithForm() {
  const window = new Window({ url: 'https://clinic.example/#contact' });
  const document = window.document as unknown as Document;
  document.body.innerHTML = `<main><form class="${bookingFormClass}"><fieldset><input name="fullName"></fieldset><button type="submit">Send</button></form></main>`;
  const form = document.querySelector('form')!;
  const send = (agent?: { respondWith: (reply: Promise<string>) => void }): boolean => {
    const event = new document.defaultView!.Event('submit', { bubbles: true, cancelable: true });
    if (agent) Object.assign(event, { agentInvoked: true, respondWith: agent.respondWith });
    form.dispatchEvent(event);
    return event.defaultPrevented;
  };
  return { document, send };
}

describe('the booking form before the app', () => {
  let module: FormBeforeApp;
  beforeEach(async () => {
    module = await freshModule();
  });

  it('holds a send, not made by the browser, and asks for the app', () => {
    const { document, send } = pageWithForm();
    const asked = vi.fn();
    module.holdSendsForApp(document, asked);
    expect(asked).not.toHaveBeenCalled();

    expect(send()).toBe(true);
    expect(asked).toHaveBeenCalledTimes(1);

    // It looks as while the app sends, until the app takes the send.
    const waiting = [...document.querySelectorAll('fieldset, button')] as HTMLButtonElement[];
    expect(waiting.map((element) => element.disabled)).toEqual([true, true]);

    // Sent twice before the app: still one send for it to make.
    send();
    expect(module.takeHeldSend()).toEqual({ reply: null });
    expect(waiting.map((element) => element.disabled)).toEqual([false, false]);
  });

  it('hands nothing to the app when nothing was sent, and leaves later sends to it', () => {
    const { document, send } = pageWithForm();
    module.holdSendsForApp(document, () => {});
    expect(module.takeHeldSend()).toBeNull();

    expect(send()).toBe(false);
    expect(module.takeHeldSend()).toBeNull();
  });

  it("answers an assistant's submit with the outcome the app reports", async () => {
    const { document, send } = pageWithForm();
    module.holdSendsForApp(document, () => {});
    let answer: Promise<string> | undefined;
    send({ respondWith: (reply) => (answer = reply) });
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
    const { document, send } = pageWithForm();
    module.takeHeldSend();
    const asked = vi.fn();
    module.holdSendsForApp(document, asked);
    expect(send()).toBe(false);
    expect(asked).not.toHaveBeenCalled();
  });
});
