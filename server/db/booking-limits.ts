import type { Queryable } from './database.ts';

/**
 * The database's own limits on booking requests (the migration
 * 20261123000100_booking_abuse_limits.sql keeps them in one row of
 * app_private.booking_limits). 0 switches a limit off.
 */
export interface BookingLimits {
  /** Requests one e-mail address may send in an hour. */
  perEmailPerHour: number;
  /** Requests the whole site accepts in a minute. */
  perMinute: number;
}

/** Sets the limits given, leaving the others as the database has them. */
export async function setBookingLimits(
  db: Queryable,
  limits: Partial<BookingLimits>,
): Promise<void> {
  if (limits.perEmailPerHour === undefined && limits.perMinute === undefined) return;
  await db.query(
    `update app_private.booking_limits
        set per_email_per_hour = coalesce($1, per_email_per_hour),
            per_minute = coalesce($2, per_minute)
      where singleton`,
    [limits.perEmailPerHour ?? null, limits.perMinute ?? null],
  );
}

export async function readBookingLimits(db: Queryable): Promise<BookingLimits> {
  const { rows } = await db.query<BookingLimits>(
    `select per_email_per_hour as "perEmailPerHour", per_minute as "perMinute"
       from app_private.booking_limits where singleton`,
  );
  const limits = rows[0];
  if (!limits) throw new Error('app_private.booking_limits has no row; run the migrations.');
  return limits;
}
