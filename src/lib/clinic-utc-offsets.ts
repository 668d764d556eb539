import { site } from '../content/site.ts';
import { utcOffsetsBetween, type UtcOffsets } from './utc-offsets.ts';

/**
 * The clinic's clock changes from the year before `now` (the build) to 15
 * years after it, for the build to write into the page (vite.config.ts).
 */
export function clinicUtcOffsets(now = new Date()): UtcOffsets {
  const year = now.getUTCFullYear();
  return utcOffsetsBetween(site.timeZone, Date.UTC(year - 1, 0, 1), Date.UTC(year + 15, 0, 1));
}
