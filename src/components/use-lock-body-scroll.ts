import { useEffect } from 'react';
import { lockBodyScroll } from '../lib/body-scroll-lock.ts';

/** Locks the page's scroll while `locked` (see src/lib/body-scroll-lock.ts). */
export function useLockBodyScroll(locked: boolean): void {
  useEffect(() => {
    if (!locked) return;
    return lockBodyScroll();
  }, [locked]);
}
