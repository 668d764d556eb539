import type { Database } from '../db/database.ts';
import {
  noticeColumnsSql,
  noticeFromRow,
  type BookingNotice,
  type BookingNoticeRow,
} from './booking-notice.ts';
import {
  channelNames,
  sentAtColumn,
  sentChannels,
  sentFlagsSql,
  type ChannelName,
} from './channel-names.ts';

/**
 * app_private.flood_digests (20261201000200_notifications.sql): the digests of
 * the requests that arrived above the site's hourly threshold. A notifier
 * opens a digest of every request waiting, once the previous one is done and
 * old enough, and sends it under a lease, as outbox.ts sends a single
 * notification; the claim id makes every later write of a notifier whose lease
 * has expired a no-op. Once the digest is complete, so are its requests'
 * notifications. Queries run as the connection's user, which owns the tables.
 */

export interface ClaimedFloodDigest {
  id: string;
  claim: string;
  /** Attempts so far, this one included. */
  attempts: number;
  /** When it was opened. */
  createdAt: Date;
  /** Channels that already took it in an earlier attempt. */
  sent: Set<ChannelName>;
  /** The requests it carries, oldest first. */
  requests: BookingNotice[];
  /** The site's hourly threshold (0 when off). */
  threshold: number;
}

export interface FloodDigests {
  /**
   * Claims the digest due: one given back for a retry, or else a new one of
   * every request waiting, if none is open and none was opened in the last
   * `intervalMs`. Undefined when there is none.
   */
  claimNext(
    claim: string,
    leaseMs: number,
    intervalMs: number,
  ): Promise<ClaimedFloodDigest | undefined>;
  /** Records one channel's success; false when the claim was lost. */
  markSent(digest: ClaimedFloodDigest, channel: ChannelName): Promise<boolean>;
  /** Every configured channel took it: it and its requests' notifications are complete. */
  complete(digest: ClaimedFloodDigest): Promise<boolean>;
  /** Gives it back, due again after `delayMs`; its requests show the error, as failing notifications. */
  retryLater(digest: ClaimedFloodDigest, delayMs: number, error: string): Promise<boolean>;
  /** Gives it back, due at once, without counting the attempt. */
  release(digest: ClaimedFloodDigest): Promise<void>;
  /** Ends every lease; only for a notifier that knows no other one can be running. */
  releaseAllClaims(): Promise<number>;
}

const digests = 'app_private.flood_digests';
const notifications = 'app_private.booking_notifications';

/**
 * Taken for the few statements that open a digest: a second notifier waits,
 * then finds the digest opened and leaves it.
 */
const openingLock = 4737151020261126;

/** The longest last_error kept (the tables' check constraints). */
const maxErrorLength = 1000;

interface DigestRow {
  id: string;
  attempts: number;
  created_at: string;
}

const returnedColumns = `id::text as id, attempts, to_json(created_at) #>> '{}' as created_at,
  ${sentFlagsSql()}`;

/** Each channel's success, copied from a completed digest to its requests' notifications. */
const copySentAt = channelNames
  .map((channel) => `${sentAtColumn(channel)} = d.${sentAtColumn(channel)}`)
  .join(', ');

export function createFloodDigests(db: Database): FloodDigests {
  const updateClaimed = async (
    digest: ClaimedFloodDigest,
    assignments: string,
    extra: readonly unknown[] = [],
  ) => {
    const { rows } = await db.query(
      `update ${digests} set ${assignments} where id = $1::bigint and claimed_by = $2 returning 1`,
      [digest.id, digest.claim, ...extra],
    );
    return rows.length > 0;
  };

  return {
    claimNext: (claim, leaseMs, intervalMs) =>
      db.transaction(async (tx) => {
        // Nearly always there is no flood: then no lock is taken, and every
        // notifier's poll costs two index lookups.
        const { rows: due } = await tx.query<{ due: boolean }>(
          `select exists (select 1 from ${digests} where completed_at is null and next_attempt_at <= now())
               or exists (select 1 from ${notifications} where digest and completed_at is null) as due`,
        );
        if (!due[0]?.due) return undefined;
        await tx.query(`select pg_advisory_xact_lock(${openingLock})`);
        let { rows } = await tx.query<DigestRow>(
          `update ${digests}
              set claimed_by = $1, attempts = attempts + 1,
                  next_attempt_at = now() + make_interval(secs => $2)
            where id = (
              select id from ${digests}
               where completed_at is null and next_attempt_at <= now()
               order by id limit 1
            )
          returning ${returnedColumns}`,
          [claim, leaseMs / 1000],
        );
        if (rows.length === 0) {
          // Every request waiting: none is in another digest, as none is open.
          ({ rows } = await tx.query<DigestRow>(
            `insert into ${digests} (claimed_by, attempts, next_attempt_at, booking_ids)
             select $1, 1, now() + make_interval(secs => $2),
                    array(select booking_id from ${notifications}
                           where digest and completed_at is null)
              where not exists (
                      select 1 from ${digests}
                       where completed_at is null or created_at > now() - make_interval(secs => $3)
                    )
                and exists (
                      select 1 from ${notifications} where digest and completed_at is null
                    )
            returning ${returnedColumns}`,
            [claim, leaseMs / 1000, intervalMs / 1000],
          ));
        }
        const row = rows[0];
        if (!row) return undefined;
        const requests = await tx.query<BookingNoticeRow>(
          `select ${noticeColumnsSql('b')},
                  app_private.answer_token(b.id) as answer_token
             from ${digests} d
             join public.bookings b on b.id = any(d.booking_ids)
            where d.id = $1::bigint
            order by b.created_at, b.id`,
          [row.id],
        );
        const limits = await tx.query<{ site_per_hour: number }>(
          'select site_per_hour from app_private.booking_limits where singleton',
        );
        return {
          id: row.id,
          claim,
          attempts: Number(row.attempts),
          createdAt: new Date(row.created_at),
          sent: sentChannels(row),
          requests: requests.rows.map(noticeFromRow),
          threshold: Number(limits.rows[0]?.site_per_hour ?? 0),
        };
      }),

    markSent: (digest, channel) => updateClaimed(digest, `${sentAtColumn(channel)} = now()`),

    complete: (digest) =>
      db.transaction(async (tx) => {
        const { rows } = await tx.query(
          `update ${digests} set completed_at = now(), claimed_by = null, last_error = null
            where id = $1::bigint and claimed_by = $2 returning 1`,
          [digest.id, digest.claim],
        );
        if (rows.length === 0) return false;
        await tx.query(
          `update ${notifications} as n
              set completed_at = d.completed_at, ${copySentAt},
                  attempts = d.attempts, last_error = null
             from ${digests} as d
            where d.id = $1::bigint and n.booking_id = any(d.booking_ids)`,
          [digest.id],
        );
        return true;
      }),

    retryLater: (digest, delayMs, error) =>
      db.transaction(async (tx) => {
        const { rows } = await tx.query(
          `update ${digests}
              set claimed_by = null, next_attempt_at = now() + make_interval(secs => $3),
                  last_error = $4
            where id = $1::bigint and claimed_by = $2 returning 1`,
          [digest.id, digest.claim, delayMs / 1000, error.slice(0, maxErrorLength)],
        );
        if (rows.length === 0) return false;
        // Shown by `npx hijama list` and the daily summary, and reported if it lasts.
        await tx.query(
          `update ${notifications} as n set last_error = $2, attempts = $3
             from ${digests} as d
            where d.id = $1::bigint and n.booking_id = any(d.booking_ids)`,
          [digest.id, error.slice(0, maxErrorLength), digest.attempts],
        );
        return true;
      }),

    async release(digest) {
      await updateClaimed(
        digest,
        'claimed_by = null, next_attempt_at = now(), attempts = greatest(attempts - 1, 0)',
      );
    },

    async releaseAllClaims() {
      const { rows } = await db.query(
        `update ${digests} set claimed_by = null, next_attempt_at = now()
          where claimed_by is not null and completed_at is null returning 1`,
      );
      return rows.length;
    },
  };
}
