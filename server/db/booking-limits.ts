import { bookingLimitSettings } from '../limits/limit-settings.ts';
import type { Queryable } from '../../supabase/functions/_shared/db/database.ts';

/**
 * The database's own limits on booking requests from the public (the migration
 * 20261201000100_limits.sql keeps them in one row of
 * app_private.booking_limits). 0 switches a limit off.
 */
export type BookingLimits = { -readonly [Limit in keyof typeof bookingLimitSettings]: number };

const names = Object.keys(bookingLimitSettings) as (keyof BookingLimits)[];
const column = (name: keyof BookingLimits) => bookingLimitSettings[name].column;

/**
 * Sets the limits given. The others stay as the database has them, or with
 * `unsetToDefault` go back to the column's default: the server's start, so
 * that removing a setting from the environment removes its effect.
 */
export async function setBookingLimits(
  db: Queryable,
  limits: Partial<BookingLimits>,
  { unsetToDefault = false }: { unsetToDefault?: boolean } = {},
): Promise<void> {
  const given = names.filter((name) => limits[name] !== undefined);
  const others = names.filter((name) => limits[name] === undefined);
  const assignments = [
    ...given.map((name, index) => `${column(name)} = $${index + 1}`),
    ...(unsetToDefault ? others.map((name) => `${column(name)} = default`) : []),
  ];
  if (assignments.length === 0) return;
  await db.query(
    `update app_private.booking_limits set ${assignments.join(', ')} where singleton`,
    given.map((name) => limits[name]),
  );
}

export async function readBookingLimits(db: Queryable): Promise<BookingLimits> {
  const selected = names.map((name) => `${column(name)} as "${name}"`);
  const { rows } = await db.query<BookingLimits>(
    `select ${selected.join(', ')} from app_private.booking_limits where singleton`,
  );
  const limits = rows[0];
  if (!limits) throw new Error('app_private.booking_limits has no row; run the migrations.');
  return limits;
}
