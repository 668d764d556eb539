import { site } from '../content/site.ts';
import { formatTime } from '../lib/opening-hours.ts';

/** The weekly hours as a list of day ranges and times. */
export function OpeningHoursTable() {
  return (
    <dl className="hours">
      {site.openingHours.map((hours) => (
        <div className="hours-row" key={hours.label}>
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
