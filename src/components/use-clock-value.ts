import { useLayoutEffect, useState } from 'react';

/**
 * A value that depends on the visitor's clock (whether the clinic is open, the
 * next Sunnah days), so never pre-rendered. It starts from what the page's
 * first script wrote into a pre-rendered view (`filledIn`), so that React
 * adopts what is on screen; it is read again before paint where the view is
 * rendered in the browser, so it arrives with the view, then every `refreshMs`.
 */
export function useClockValue<T>(
  filledIn: () => T | null,
  current: () => T,
  refreshMs: number,
): T | null {
  const [value, setValue] = useState<T | null>(filledIn);
  useLayoutEffect(() => {
    const update = () => setValue(current());
    update();
    const timer = window.setInterval(update, refreshMs);
    return () => window.clearInterval(timer);
  }, [current, refreshMs]);
  return value;
}
