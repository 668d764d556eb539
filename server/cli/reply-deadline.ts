import { replyBy } from '../../supabase/functions/_shared/notifications/booking-notice.ts';

/**
 * The promise the site makes to every visitor, kept by the practice: a reply
 * within `replyWithinHours` of the request's arrival (supabase/functions/_shared/content/practice.ts).
 * Pure: the time left before replyBy (the e-mail's "Reply by"), or how late,
 * in the compact form of a column of `npx hijama list`.
 */

const minuteMs = 60_000;
const hourMs = 60 * minuteMs;
const dayMs = 24 * hourMs;

/** "5h 12min left" before the reply is due, "LATE by 2h 3min" after. */
export function describeReplyTime(receivedAt: Date, now: Date): string {
  const remaining = replyBy(receivedAt).getTime() - now.getTime();
  return remaining > 0
    ? `${formatDuration(remaining)} left`
    : `LATE by ${formatDuration(-remaining)}`;
}

/** "42min", "5h 12min", "3d 4h": minutes, hours or days, the two largest units, rounded down. */
export function formatDuration(ms: number): string {
  const minutes = Math.floor(ms / minuteMs);
  if (ms < hourMs) return `${minutes}min`;
  if (ms < 2 * dayMs) return `${Math.floor(ms / hourMs)}h ${minutes % 60}min`;
  return `${Math.floor(ms / dayMs)}d ${Math.floor(ms / hourMs) % 24}h`;
}
