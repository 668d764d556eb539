import type { BookingRow } from '../../supabase/functions/_shared/core/booking-row.ts';
import type { Queryable } from '../../supabase/functions/_shared/db/database.ts';
import { bookingWithId } from './booking-samples.ts';

/**
 * A waiting request, inserted as the tables' owner (created_at cannot come
 * through the API), `fields` over its own; its id.
 */
export async function storeWaitingRequest(
  db: Queryable,
  /** Its columns as the table owner may write them, created_at included. */
  fields: Partial<BookingRow & { created_at: string }> = {},
): Promise<string> {
  const row = bookingWithId(fields);
  const columns = Object.keys(row);
  await db.query(
    `insert into public.bookings (${columns.join(', ')})
     values (${columns.map((_, index) => `$${index + 1}`).join(', ')})`,
    Object.values(row),
  );
  return row.id;
}

/** The token of a request's "Mark as answered" link, as the notifier has the database sign it. */
export async function answerTokenFor(
  db: Pick<Queryable, 'query'>,
  id: string,
  validFor = '30 days',
): Promise<string> {
  const { rows } = await db.query<{ token: string }>(
    'select app_private.answer_token($1::uuid, $2::interval) as token',
    [id, validFor],
  );
  return rows[0]!.token;
}

/** `token` with its last character changed: a signature that does not match. */
export function forgedToken(token: string): string {
  return token.slice(0, -1) + (token.endsWith('0') ? '1' : '0');
}
