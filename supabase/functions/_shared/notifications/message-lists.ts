/**
 * How long a list in a message to the practice may be: the daily summary's,
 * a reminder's, a flood digest's. A flood of robots' requests left waiting
 * would otherwise make a message of megabytes that no phone opens. Each
 * composer lists the first ones and, in its own words, counts the rest with
 * the command that lists them all.
 */

import { ukDayOf } from '../uk-time.ts';

/** The most items a list shows one by one. */
export const messageListLimit = 50;

/** The items a list shows, and how many it leaves to the command. */
export function capList<T>(items: readonly T[]): { listed: readonly T[]; unlisted: number } {
  const listed = items.slice(0, messageListLimit);
  return { listed, unlisted: items.length - listed.length };
}

/** "29,950": a count as the practice reads it. */
export function formatCount(count: number): string {
  return count.toLocaleString('en-GB');
}

/** "1 request", "3 requests", "30,000 requests"; `many` where it is not `one` and an s. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/**
 * The command that lists every request from `since` on: from its UK day, so
 * that it still lists them when the message is read hours later, and all of
 * them, past the list's usual 100.
 */
export function listCommandFrom(since: Date): string {
  return `npx hijama list --since ${ukDayOf(since)} --limit all`;
}

/** The command that lists every waiting request, quoted when some are not listed. */
export const waitingListCommand = 'npx hijama list --waiting --limit all';
