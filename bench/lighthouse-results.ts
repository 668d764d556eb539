import type { Result } from 'lighthouse';

/** An audit's measured value (milliseconds, or unitless for layout shift); NaN when Lighthouse has none. */
export function numeric(lhr: Result, auditId: string): number {
  return lhr.audits[auditId]?.numericValue ?? Number.NaN;
}
