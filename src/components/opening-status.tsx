import {
  currentOpeningStatus,
  describeOpeningStatus,
  openingStatusClass,
  statusFilledIn,
} from '../lib/opening-status-text.ts';
import { useClockValue } from './use-clock-value.ts';

const refreshMs = 60_000;

/**
 * 'Open now · closes at 8:30 PM', in the clinic's time zone. It depends on the
 * visitor's clock, so it is never pre-rendered (it would be stale); the line
 * keeps its height until it is filled in. On a pre-rendered view the page's
 * first script fills it in before React runs (src/main.tsx); React starts from
 * that same status, so what it adopts matches.
 */
export function OpeningStatusLine() {
  const status = useClockValue(statusFilledIn, currentOpeningStatus, refreshMs);

  return (
    <p className={openingStatusClass} data-open={status?.open}>
      <span className="opening-status-dot" aria-hidden="true" />
      {status ? describeOpeningStatus(status) : '\u00a0'}
    </p>
  );
}
