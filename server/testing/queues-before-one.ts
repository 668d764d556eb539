import type { Database } from '../../supabase/functions/_shared/db/database.ts';
import { dailyRunDue } from '../../supabase/functions/_shared/notifications/daily-schedule.ts';
import { passSchedule } from './notifier-pass.ts';

/**
 * The messages of a database made before the one queue, in the six tables
 * that held them (release 1.0.0's among them), and the same messages read
 * from the queue after an upgrade or a restore has moved them: what proves
 * that nothing was lost and nothing changed on the way.
 */

/** The last migration before the one queue. */
export const lastBeforeOneQueue = '20261202000400_undo_and_delete.sql';

/**
 * A message of every kind as the six tables before the one queue kept them,
 * beside the requests' notifications (`answered`'s sent by e-mail and the
 * request marked answered by phone, `waiting`'s taken by the webhook alone):
 * a flood alert waiting and one sent, today's daily run done, a reminder and
 * an acknowledgement sent, a flood digest sent.
 */
export async function addMessagesOfEveryKind(
  db: Database,
  requests: { answered: string; waiting: string },
) {
  await db.query(
    `update app_private.booking_notifications
        set attempts = 1, email_sent_at = now(), completed_at = now() where booking_id = $1`,
    [requests.answered],
  );
  await db.query(
    `insert into app_private.booking_answers (booking_id, channel, marked_by)
     values ($1, 'phone', 'command')`,
    [requests.answered],
  );
  await db.query(
    `update app_private.booking_notifications
        set attempts = 2, webhook_sent_at = now(), last_error = 'e-mail: 421 Try again later'
      where booking_id = $1`,
    [requests.waiting],
  );
  await db.query(`insert into app_private.booking_alerts (kind) values ('flood')`);
  await db.query(
    `insert into app_private.booking_alerts (kind, details, sent_at, last_error, created_at)
     values ('notification_failing', $1, now(), '535 Authentication failed', now() - interval '1 day')`,
    [{ after_minutes: 60, notifications: [{ booking_id: requests.waiting }] }],
  );
  await db.query(
    `insert into app_private.daily_runs (day, attempts, done_at) values ($1, 1, now()),
       ($2, 2, now() - interval '1 day')`,
    [dailyRunDue(new Date(), passSchedule.at), '2026-11-20'],
  );
  await db.query(
    `insert into app_private.booking_reminders (booking_id, attempts, reminded_at)
     values ($1, 1, now())`,
    [requests.answered],
  );
  await db.query(
    `insert into app_private.booking_acknowledgements (booking_id, address_key, state, attempts, sent_at)
     values ($1, '\\x00', 'sent', 1, now())`,
    [requests.answered],
  );
  await db.query(
    `insert into app_private.flood_digests (booking_ids, attempts, email_sent_at, completed_at)
     values (array[$1::uuid], 1, now(), now())`,
    [requests.answered],
  );
}

/**
 * The queries that read the messages, alike before and after the move into
 * the one queue (20261203000000_one_message_queue.sql):
 * what each says, when it was made and tried, and whether and when it was
 * settled.
 */
export const queuesBeforeOneQueue = {
  notifications: `select booking_id, created_at, attempts, next_attempt_at, email_sent_at,
                         webhook_sent_at, ntfy_sent_at, last_error, failure_reported_at,
                         digest, completed_at as settled_at
                    from app_private.booking_notifications order by booking_id`,
  digests: `select booking_ids, created_at, attempts, next_attempt_at, email_sent_at,
                   webhook_sent_at, ntfy_sent_at, last_error, completed_at as settled_at
              from app_private.flood_digests order by id`,
  alerts: `select kind, details, created_at, next_attempt_at, last_error, sent_at as settled_at
             from app_private.booking_alerts order by id`,
  dailyRuns: `select day, attempts, next_attempt_at, last_error, done_at as settled_at
                from app_private.daily_runs order by day`,
  reminders: `select booking_id, attempts, next_attempt_at, last_error, reminded_at as settled_at
                from app_private.booking_reminders order by booking_id`,
  acknowledgements: `select booking_id, address_key, state, attempts, last_error, sent_at as settled_at
                       from app_private.booking_acknowledgements order by booking_id`,
};

export const oneQueue: typeof queuesBeforeOneQueue = {
  notifications: `select booking_id, created_at, attempts, next_attempt_at, email_sent_at,
                         webhook_sent_at, ntfy_sent_at, last_error, failure_reported_at,
                         in_digest as digest, done_at as settled_at
                    from app_private.messages where kind = 'notification' order by booking_id`,
  digests: `select booking_ids, created_at, attempts, next_attempt_at, email_sent_at,
                   webhook_sent_at, ntfy_sent_at, last_error, done_at as settled_at
              from app_private.messages where kind = 'flood_digest' order by id`,
  alerts: `select kind, details, created_at, next_attempt_at, last_error, done_at as settled_at
             from app_private.messages
            where kind not in ('daily_run', 'notification', 'flood_digest', 'reminder', 'acknowledgement')
            order by id`,
  dailyRuns: `select day, attempts, next_attempt_at, last_error, done_at as settled_at
                from app_private.messages where kind = 'daily_run' order by day`,
  reminders: `select booking_id, attempts, next_attempt_at, last_error, done_at as settled_at
                from app_private.messages where kind = 'reminder' order by booking_id`,
  acknowledgements: `select booking_id, address_key, coalesce(outcome, 'sending') as state, attempts,
                            last_error, done_at as settled_at
                       from app_private.messages where kind = 'acknowledgement' order by booking_id`,
};

export async function readMessages(
  db: Database,
  queries: typeof queuesBeforeOneQueue,
): Promise<unknown> {
  const read: Record<string, unknown> = {};
  for (const [name, sql] of Object.entries(queries)) {
    const { rows } = await db.query<{ rows: unknown }>(
      `select coalesce(json_agg(t), '[]') as rows from (${sql}) t`,
    );
    read[name] = rows[0]?.rows;
  }
  return read;
}
