import { bookingFormClass, mainElementId } from '../boot/protocol.ts';

/**
 * While the booking page is on screen before the app has adopted it, its form
 * is inert (what was typed into it would be lost at the adoption), so a Tab
 * from the page's heading would pass it by. Such a Tab is held and given to
 * the form's first field once the app has made the form usable: no key is
 * lost to the page loading, as no tap is.
 */
export function holdTabForForm(document: Document): void {
  const form = () => document.querySelector<HTMLFormElement>(`form.${bookingFormClass}`);
  const before = (element: Element | null, reference: Element) =>
    element !== null &&
    (reference.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_PRECEDING) !== 0;
  let held = false;

  const onKeyDown = (event: KeyboardEvent) => {
    const inertForm = form();
    if (event.key !== 'Tab' || event.shiftKey || !inertForm?.inert) return;
    if (!before(document.activeElement, inertForm)) return;
    event.preventDefault();
    held = true;
  };

  const release = new MutationObserver(() => {
    const usable = form();
    if (!usable || usable.inert) return;
    release.disconnect();
    document.removeEventListener('keydown', onKeyDown, true);
    if (held) usable.querySelector<HTMLElement>('input, select, textarea')?.focus();
  });

  if (!form()?.inert) return;
  document.addEventListener('keydown', onKeyDown, true);
  release.observe(document.getElementById(mainElementId) ?? document.body, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['inert'],
  });
}
