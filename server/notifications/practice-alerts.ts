import type { Database } from '../db/database.ts';
import { formatUkTimeLong } from '../uk-time.ts';

/**
 * Messages to the practice about the booking form itself, left by the database
 * in app_private.booking_alerts (20261123120000_booking_visitor_limits.sql):
 * one when the site-wide limit is reached, however many requests it then
 * refuses. The notifier sends each once, through every channel.
 */

export type PracticeAlertKind = 'site_limit_reached';

export interface PracticeAlert {
  id: string;
  kind: PracticeAlertKind;
  createdAt: Date;
}

export interface AlertMessage {
  subject: string;
  text: string;
}

/** What the practice reads about an alert, by e-mail or in a webhook. */
export function composeAlert(alert: PracticeAlert): AlertMessage {
  switch (alert.kind) {
    case 'site_limit_reached':
      return {
        subject: 'The booking form has reached its hourly limit',
        text: [
          `At ${formatUkTimeLong(alert.createdAt)} the booking form took its last request of the hour allowed for the whole site.`,
          '',
          'For up to an hour, new visitors are asked to try again later; requests already sent are kept and notified as usual.',
          'So many requests at once are usually a robot. If they are real visitors (after a post that many people saw, say), raise the limit:',
          '  update app_private.booking_limits set site_per_hour = 120;',
          'in the SQL editor of Supabase, or BOOKING_LIMIT_SITE_PER_HOUR on the project\u2019s server.',
          '',
        ].join('\n'),
      };
  }
}

export interface AlertStore {
  /** Takes the oldest unsent alert for sending; undefined when none is waiting. */
  claimNext(): Promise<PracticeAlert | undefined>;
  /** Gives a claimed alert back, with the reason it could not be sent. */
  giveBack(alert: PracticeAlert, error: string): Promise<void>;
}

export function createAlertStore(db: Database): AlertStore {
  return {
    async claimNext() {
      // Marked sent as it is claimed, so that two notifiers never both send it;
      // one that fails gives it back.
      const { rows } = await db.query<{ id: string; kind: PracticeAlertKind; created_at: Date }>(
        `update app_private.booking_alerts set sent_at = now()
          where id = (
            select id from app_private.booking_alerts
             where sent_at is null order by created_at limit 1 for update skip locked
          )
          returning id::text as id, kind, created_at`,
      );
      const row = rows[0];
      return row && { id: row.id, kind: row.kind, createdAt: new Date(row.created_at) };
    },
    async giveBack(alert, error) {
      await db.query(
        `update app_private.booking_alerts set sent_at = null, last_error = left($2, 1000) where id = $1::bigint`,
        [alert.id, error],
      );
    },
  };
}
