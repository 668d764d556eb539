import { useCallback, useState } from 'react';

/** Open/closed state shared by every overlay (menu, modal). */
export function useDisclosure(initiallyOpen = false) {
  const [isOpen, setOpen] = useState(initiallyOpen);
  const open = useCallback(() => setOpen(true), []);
  const close = useCallback(() => setOpen(false), []);
  return { isOpen, open, close };
}
