import type { Queryable } from '../../supabase/functions/_shared/db/database.ts';

/** A waiting request, inserted as the tables' owner; its id. */
export async function storeWaitingRequest(db: Queryable): Promise<string> {
  const id = crypto.randomUUID();
  await db.query(
    `insert into public.bookings (id, full_name, phone, email) values ($1, 'Amina Khan', '01634 123456', 'amina@example.com')`,
    [id],
  );
  return id;
}

/** The token of a request's "Mark as answered" link, as the notifier has the database sign it. */
export async function answerTokenFor(
  db: Queryable,
  id: string,
  validFor = '30 days',
): Promise<string> {
  const { rows } = await db.query<{ token: string }>(
    'select app_private.answer_token($1::uuid, $2::interval) as token',
    [id, validFor],
  );
  return rows[0]!.token;
}
