import type { Database } from '../db/database.ts';
import {
  noticeFromRow,
  noticeWithAnswerTokenSql,
  type BookingNotice,
  type BookingNoticeRow,
} from './booking-notice.ts';
import { channelNames, sentAtColumn } from './channel-names.ts';
import { createMessageQueue, type ClaimedMessage } from './message-queue.ts';

/**
 * The digests of the requests that arrived above the site's hourly threshold:
 * messages of kind `flood_digest` of the one queue (message-queue.ts). A
 * notifier opens a digest of every request waiting in none, once the previous
 * one is old enough, and sends it under a lease, as a single notification.
 * Once the digest is complete, so are its requests' notifications. One that a
 * channel keeps refusing retries its own channels, as a notification does,
 * and holds back no later request: the next digest opens all the same.
 * Queries run as the connection's user, which owns the queue.
 */

export interface ClaimedFloodDigest extends ClaimedMessage {
  /** The requests it carries, oldest first. */
  requests: BookingNotice[];
  /** The site's hourly threshold (booking_limits.site_per_hour) when it was opened; 0 when off. */
  threshold: number;
}

/**
 * Taken for the few statements that open a digest: a second notifier waits,
 * then finds the digest opened and leaves it.
 */
const openingLock = 4737151020261126;

/** The flood's requests whose notifications wait for a digest: in none still open. */
const waiting = `select n.booking_id from app_private.messages as n
  where n.kind = 'notification' and n.in_digest and n.done_at is null
    and not exists (select 1 from app_private.messages as d
                     where d.kind = 'flood_digest' and d.done_at is null
                       and n.booking_id = any(d.booking_ids))`;

/** The digest's requests' notifications, `n`, beside the digest, `d` ($1). */
const ofItsRequests = `from app_private.messages as d
  where d.id = $1::bigint and n.kind = 'notification' and n.booking_id = any(d.booking_ids)`;

/** Each channel's success, copied from a digest to its requests' notifications. */
const copySentAt = channelNames
  .map((channel) => `${sentAtColumn(channel)} = d.${sentAtColumn(channel)}`)
  .join(', ');

export type FloodDigests = ReturnType<typeof createFloodDigests>;

export function createFloodDigests(db: Database) {
  return {
    /**
     * Claims the digest due: one given back for a retry, or else a new one of
     * every request waiting, if none was opened in the last `intervalMs`.
     * Undefined when there is none.
     */
    claimNext: (leaseMs: number, intervalMs: number) =>
      db.transaction(async (tx): Promise<ClaimedFloodDigest | undefined> => {
        // Nearly always there is no flood: then no lock is taken, and every
        // notifier's poll costs two index lookups.
        const { rows: due } = await tx.query<{ due: boolean }>(
          `select exists (select 1 from app_private.messages
                           where kind = 'flood_digest' and done_at is null and next_attempt_at <= now())
               or exists (${waiting}) as due`,
        );
        if (!due[0]?.due) return undefined;
        await tx.query(`select pg_advisory_xact_lock(${openingLock})`);
        const queue = createMessageQueue(tx);
        let digest = await queue.claimNext(['flood_digest'], leaseMs);
        if (!digest) {
          await tx.query(
            `insert into app_private.messages (kind, booking_ids)
             select 'flood_digest', array(${waiting} order by n.created_at, n.booking_id)
              where not exists (
                      select 1 from app_private.messages
                       where kind = 'flood_digest'
                         and created_at > now() - make_interval(secs => $1)
                    )
                and exists (${waiting})`,
            [intervalMs / 1000],
          );
          digest = await queue.claimNext(['flood_digest'], leaseMs);
        }
        if (!digest) return undefined;
        const requests = await tx.query<BookingNoticeRow>(
          `select ${noticeWithAnswerTokenSql('b')}
             from app_private.messages d
             join public.bookings b on b.id = any(d.booking_ids)
            where d.id = $1::bigint
            order by b.created_at, b.id`,
          [digest.id],
        );
        const limits = await tx.query<{ site_per_hour: number }>(
          'select site_per_hour from app_private.booking_limits where singleton',
        );
        return {
          ...digest,
          requests: requests.rows.map(noticeFromRow),
          threshold: Number(limits.rows[0]?.site_per_hour ?? 0),
        };
      }),

    /** Every configured channel took it: it and its requests' notifications are complete. */
    complete: (digest: ClaimedFloodDigest) =>
      db.transaction(async (tx) => {
        if ((await createMessageQueue(tx).settle(digest, 'sent', { note: null })) === 0) {
          return false;
        }
        await tx.query(
          `update app_private.messages as n
              set done_at = d.done_at, outcome = 'sent', ${copySentAt},
                  attempts = d.attempts, last_error = null, claimed_by = null
           ${ofItsRequests}`,
          [digest.id],
        );
        return true;
      }),

    /**
     * Gives it back, due again after `delayMs`; its requests show the error, as
     * failing notifications, and the channels that did take it.
     */
    retryLater: (digest: ClaimedFloodDigest, delayMs: number, error: string) =>
      db.transaction(async (tx) => {
        if (!(await createMessageQueue(tx).retryLater(digest, delayMs, error))) return false;
        // Shown by `npx hijama list` and the daily summary, and reported if it lasts: an
        // alert then names only the channels that missed them.
        await tx.query(
          `update app_private.messages as n
              set last_error = d.last_error, attempts = d.attempts, ${copySentAt}
           ${ofItsRequests}`,
          [digest.id],
        );
        return true;
      }),
  };
}
