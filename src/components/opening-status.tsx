import { useLayoutEffect, useState } from 'react';
import { site } from '../content/site.ts';
import {
  formatTime,
  localTimeIn,
  openingStatus,
  type OpeningStatus,
} from '../lib/opening-hours.ts';

function describe(status: OpeningStatus): string {
  const copy = site.openingStatus;
  if (status.open) return copy.open(formatTime(status.closes));
  const when =
    status.daysAhead === 0
      ? copy.today
      : status.daysAhead === 1
        ? copy.tomorrow
        : copy.weekdays[status.weekday];
  return copy.closed(when, formatTime(status.opens));
}

const refreshMs = 60_000;

/**
 * 'Open now · closes at 8:30 PM', in the clinic's time zone. It depends on the
 * visitor's clock, so it is never pre-rendered (it would be stale); the line
 * keeps its height until it is filled in.
 */
export function OpeningStatusLine({ className }: { className?: string }) {
  const [status, setStatus] = useState<OpeningStatus | null>(null);

  // Before paint where the view is rendered in the browser, so the line arrives with it.
  useLayoutEffect(() => {
    const update = () =>
      setStatus(openingStatus(site.openingHours, localTimeIn(site.timeZone, new Date())));
    update();
    const timer = window.setInterval(update, refreshMs);
    return () => window.clearInterval(timer);
  }, []);

  return (
    <p className={['opening-status', className].filter(Boolean).join(' ')} data-open={status?.open}>
      <span className="opening-status-dot" aria-hidden="true" />
      {status ? describe(status) : '\u00a0'}
    </p>
  );
}
