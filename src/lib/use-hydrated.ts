import { useSyncExternalStore } from 'react';

const nothingToWatch = () => () => {};

/**
 * False in the markup rendered at build time and while the browser adopts it
 * (hydration); true right after, and in any render the browser does itself.
 * What must not work before the script does (a form that only the script can
 * send) is rendered off until then, in the markup itself.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    nothingToWatch,
    () => true,
    () => false,
  );
}
