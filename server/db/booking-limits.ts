import type { Queryable } from './database.ts';

/**
 * The database's own limits on booking requests from the public (the migration
 * 20261123120000_booking_visitor_limits.sql keeps them in one row of
 * app_private.booking_limits). 0 switches a limit off.
 */
export interface BookingLimits {
  /** Requests one client network (an IPv4 address, an IPv6 /64) may send in an hour. */
  perClientPerHour: number;
  /** Requests for one e-mail address in an hour. */
  perEmailPerHour: number;
  /** Requests the whole site accepts in an hour: the flood guard. */
  sitePerHour: number;
}

const columns: Record<keyof BookingLimits, string> = {
  perClientPerHour: 'per_client_per_hour',
  perEmailPerHour: 'per_email_per_hour',
  sitePerHour: 'site_per_hour',
};
const names = Object.keys(columns) as (keyof BookingLimits)[];

/** Sets the limits given, leaving the others as the database has them. */
export async function setBookingLimits(
  db: Queryable,
  limits: Partial<BookingLimits>,
): Promise<void> {
  if (names.every((name) => limits[name] === undefined)) return;
  const assignments = names.map(
    (name, index) => `${columns[name]} = coalesce($${index + 1}, ${columns[name]})`,
  );
  await db.query(
    `update app_private.booking_limits set ${assignments.join(', ')} where singleton`,
    names.map((name) => limits[name] ?? null),
  );
}

export async function readBookingLimits(db: Queryable): Promise<BookingLimits> {
  const selected = names.map((name) => `${columns[name]} as "${name}"`);
  const { rows } = await db.query<BookingLimits>(
    `select ${selected.join(', ')} from app_private.booking_limits where singleton`,
  );
  const limits = rows[0];
  if (!limits) throw new Error('app_private.booking_limits has no row; run the migrations.');
  return limits;
}
