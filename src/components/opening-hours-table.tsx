import { site } from '../content/site.ts';
import { formatTime } from '../lib/opening-hours.ts';

/**
 * The weekly hours as a list of day ranges and times. `compact` drops the
 * rows' class, for a second, smaller copy (the footer's) that reads apart from the view's.
 */
export function OpeningHoursTable({ compact = false }: { compact?: boolean }) {
  return (
    <dl className={compact ? 'hours hours-compact' : 'hours'}>
      {site.openingHours.map((hours) => (
        <div className={compact ? undefined : 'hours-row'} key={hours.label}>
          <dt>{hours.label}</dt>
          <dd>
            <time dateTime={hours.opens}>{formatTime(hours.opens)}</time>
            {' - '}
            <time dateTime={hours.closes}>{formatTime(hours.closes)}</time>
          </dd>
        </div>
      ))}
    </dl>
  );
}
