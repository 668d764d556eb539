import { useEffect, useId, type ReactNode } from 'react';
import { site } from '../content/site.ts';
import { Dialog } from './dialog.tsx';

interface ModalProps {
  isOpen: boolean;
  onClose: () => void;
  title: string;
  /** Shown above the title, e.g. a success icon. */
  icon?: ReactNode;
  children: ReactNode;
}

/**
 * A centred card over a dimmed backdrop, named by its title, with one clear
 * Close button; Escape and a click on the backdrop close it too.
 */
export function Modal({ isOpen, onClose, title, icon, children }: ModalProps) {
  const titleId = useId();
  // Read out on opening: focus lands on Close, and the body would otherwise go
  // unread. Only while open: the pre-rendered page has no bytes to spare.
  const bodyId = useId();
  const describedBy = isOpen ? bodyId : undefined;

  // A modal left open must not come back when the visitor returns to the page.
  useEffect(() => {
    if (!isOpen) return;
    window.addEventListener('pagehide', onClose);
    return () => window.removeEventListener('pagehide', onClose);
  }, [isOpen, onClose]);

  return (
    <Dialog
      isOpen={isOpen}
      onClose={onClose}
      labelledBy={titleId}
      describedBy={describedBy}
      className="modal"
    >
      <div className="modal-card">
        {icon}
        <h2 id={titleId} className="modal-title">
          {title}
        </h2>
        <div id={describedBy} className="modal-body">
          {children}
        </div>
        <button type="button" className="button button-secondary modal-close" onClick={onClose}>
          {site.chrome.closeDialog}
        </button>
      </div>
    </Dialog>
  );
}
