import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { lockBodyScroll } from '../lib/body-scroll-lock.ts';

interface DialogProps {
  isOpen: boolean;
  onClose: () => void;
  /** The id of the element that names the dialog (its title). */
  labelledBy: string;
  /** The id of the element a screen reader reads on opening, after the name. */
  describedBy?: string;
  className: string;
  children: ReactNode;
}

/** Longer than the usual interval between the two clicks of a double click. */
const doubleClickMs = 500;

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Keeps Tab and Shift+Tab cycling inside the dialog. The browser alone would
 * let focus leave the page for its own toolbar after the last control.
 */
function keepFocusInside(event: KeyboardEvent<HTMLDialogElement>): void {
  if (event.key !== 'Tab') return;
  const controls = [...event.currentTarget.querySelectorAll<HTMLElement>(focusable)];
  const first = controls[0];
  const last = controls[controls.length - 1];
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * The native modal <dialog>: the browser traps focus inside it, makes the rest
 * of the page inert, closes it on Escape and gives focus back to whatever opened
 * it. This wrapper keeps it in step with React state, closes it on a click on
 * the backdrop and locks the page's scroll while it is open.
 */
export function Dialog({
  isOpen,
  onClose,
  labelledBy,
  describedBy,
  className,
  children,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const openedAt = useRef(0);
  // The page's scroll is locked while it is open (src/lib/body-scroll-lock.ts).
  useEffect(() => (isOpen ? lockBodyScroll() : undefined), [isOpen]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (isOpen && !dialog.open) {
      dialog.showModal();
      openedAt.current = performance.now();
    }
    if (!isOpen && dialog.open) dialog.close();
  }, [isOpen]);

  return (
    <dialog
      ref={ref}
      className={className}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      // Escape: let React state decide, so the closing path is always the same.
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClose={() => {
        if (isOpen) onClose();
      }}
      onKeyDown={keepFocusInside}
      onClick={(event) => {
        // The dialog element itself is hit only outside its content, i.e. on the backdrop.
        // The second click of a double click that opened the dialog is not a request to close it.
        const settled = performance.now() - openedAt.current > doubleClickMs;
        if (event.target === event.currentTarget && settled) onClose();
      }}
    >
      {children}
    </dialog>
  );
}
