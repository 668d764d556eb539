/**
 * A time zone's offsets from UTC as a table of changes, so that the browser can
 * tell the clinic's wall clock without Intl: the first Intl formatter with a
 * time zone costs a phone's main thread 100–200 ms (ICU loads its zone data),
 * more than the rest of the page's first script. The build writes the table
 * (vite.config.ts, `__CLINIC_UTC_OFFSETS__`); Intl is the fallback outside it.
 */

/** From `at` (milliseconds since the epoch) on, the zone is `offsetMinutes` ahead of UTC. */
type OffsetChange = readonly [at: number, offsetMinutes: number];

export interface UtcOffsets {
  timeZone: string;
  /** In time order; the first is the table's start, the last `until` its end. */
  changes: readonly OffsetChange[];
  until: number;
}

const minuteMs = 60_000;

/** The zone's offset from UTC at an instant, in minutes, by Intl (for the build). */
function offsetByIntl(format: Intl.DateTimeFormat, at: number): number {
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
  );
  return Math.round((wall - Math.floor(at / minuteMs) * minuteMs) / minuteMs);
}

/** Every change of the zone's offset between two instants, to the minute. */
export function utcOffsetsBetween(timeZone: string, from: number, until: number): UtcOffsets {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  });
  const step = 6 * 60 * minuteMs;
  const changes: OffsetChange[] = [[from, offsetByIntl(format, from)]];
  for (let at = from + step; at < until; at += step) {
    const last = changes[changes.length - 1]![1];
    if (offsetByIntl(format, at) === last) continue;
    // The minute it changed, between the previous step and this one.
    let low = at - step;
    let high = at;
    while (high - low > minuteMs) {
      const middle = low + Math.floor((high - low) / 2 / minuteMs) * minuteMs;
      if (offsetByIntl(format, middle) === last) low = middle;
      else high = middle;
    }
    changes.push([high, offsetByIntl(format, high)]);
  }
  return { timeZone, changes, until };
}

/** The offset at an instant from the table, or null outside it. */
export function offsetFromTable(table: UtcOffsets, at: number): number | null {
  const { changes, until } = table;
  if (changes.length === 0 || at < changes[0]![0] || at >= until) return null;
  let offset = changes[0]![1];
  for (const [from, minutes] of changes) {
    if (from > at) break;
    offset = minutes;
  }
  return offset;
}
