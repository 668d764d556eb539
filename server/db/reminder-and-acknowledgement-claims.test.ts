import { describe, expect, it } from 'vitest';
import { storeWaitingRequest } from '../testing/answer-fixtures.ts';
import { sampleBooking } from '../testing/booking-samples.ts';
import { testEngines } from '../testing/helpers.ts';
import { useTestDatabase } from '../testing/test-database.ts';

/**
 * The database's side of reminders and acknowledgements
 * (20261201000200_notifications.sql, 20261202000200_flood_reminders.sql):
 * each waiting request is claimed for one reminder once, and an address gets
 * at most one acknowledgement in 24 hours, whichever notifier asks. That a
 * flood's requests are never reminded, and reminders go at most every 15
 * minutes, is tested where the reminders are sent (reminders.test.ts).
 */

const hour = 3_600_000;

describe.each(testEngines('claims'))('reminder and acknowledgement claims on $name', (engine) => {
  const database = useTestDatabase(engine);
  // A fixed clock for the claims, far from the real one.
  const start = new Date('2026-03-28T12:00:00Z');

  const storedRequest = (createdAt: Date, email = sampleBooking.email) =>
    storeWaitingRequest(database.db, { created_at: createdAt.toISOString(), email });

  const claimReminders = async (at: Date, claim = crypto.randomUUID()) => {
    const { rows } = await database.db.query<{ booking_id: string }>(
      `select booking_id::text from app_private.claim_due_reminders($1, interval '5 minutes', interval '20 hours', 200, $2)`,
      [claim, at.toISOString()],
    );
    return rows.map((row) => row.booking_id);
  };

  it('claims a waiting request once it is due, once, and not when answered', async () => {
    const due = await storedRequest(new Date(start.getTime() - 21 * hour));
    const notYet = await storedRequest(new Date(start.getTime() - 19 * hour));
    const answered = await storedRequest(new Date(start.getTime() - 22 * hour));
    await database.db.query(
      'insert into app_private.booking_answers (booking_id, answered_at, marked_by) values ($1, $2, $3)',
      [answered, new Date(start.getTime() - hour).toISOString(), 'command'],
    );

    const first = await claimReminders(start);
    expect(first).toContain(due);
    expect(first).not.toContain(notYet);
    expect(first).not.toContain(answered);
    // Claimed: another notifier finds nothing until the lease ends.
    expect(await claimReminders(start)).not.toContain(due);
    // The lease ended without the reminder being sent: it is claimed again.
    expect(await claimReminders(new Date(start.getTime() + 6 * 60_000))).toContain(due);
    await database.db.query(
      `update app_private.messages set done_at = $2, outcome = 'sent'
        where kind = 'reminder' and booking_id = $1`,
      [due, start.toISOString()],
    );
    expect(await claimReminders(new Date(start.getTime() + 2 * hour))).toEqual([notYet]);
  });

  const claimAcknowledgement = async (at: Date) => {
    const { rows } = await database.db.query<{ booking_id: string }>(
      `select booking_id::text from app_private.claim_acknowledgement(
         $1, interval '5 minutes', interval '1 hour', interval '24 hours', $2)`,
      [crypto.randomUUID(), at.toISOString()],
    );
    return rows[0]?.booking_id;
  };

  const markSent = (id: string, at: Date) =>
    database.db.query(
      `update app_private.messages set outcome = 'sent', done_at = $2, claimed_by = null
        where kind = 'acknowledgement' and booking_id = $1`,
      [id, at.toISOString()],
    );

  it('acknowledges one request per mailbox in 24 hours, however its address is spelt', async () => {
    const at = new Date('2026-10-25T00:30:00Z');
    const first = await storedRequest(new Date(at.getTime() - 10 * 60_000), 'Re.peat@Gmail.com');
    const second = await storedRequest(new Date(at.getTime() - 5 * 60_000), 'repeat+1@gmail.com');

    expect(await claimAcknowledgement(at)).toBe(first);
    // The second, the same mailbox spelt otherwise: limited while the first is being sent.
    expect(await claimAcknowledgement(at)).toBeUndefined();
    await markSent(first, at);
    const third = await storedRequest(
      new Date(at.getTime() + 60_000),
      'r.e.p.e.a.t+x@googlemail.com',
    );
    expect(await claimAcknowledgement(new Date(at.getTime() + 2 * 60_000))).toBeUndefined();

    const { rows } = await database.db.query<{ booking_id: string; state: string }>(
      `select booking_id::text, coalesce(outcome, 'sending') as state from app_private.messages
        where kind = 'acknowledgement' and booking_id = any($1::uuid[]) order by booking_id`,
      [[first, second, third]],
    );
    expect(Object.fromEntries(rows.map((row) => [row.booking_id, row.state]))).toEqual({
      [first]: 'sent',
      [second]: 'limited',
      [third]: 'limited',
    });
    // The address is not stored, only its keyed hash.
    const { rows: stored } = await database.db.query<{ holds: boolean }>(
      `select bool_or(position('repeat' in encode(address_key, 'escape')) > 0) as holds
         from app_private.messages where kind = 'acknowledgement'`,
    );
    expect(stored[0]?.holds).toBe(false);

    // A day later, the same address is acknowledged again.
    const later = new Date(at.getTime() + 25 * hour);
    const fourth = await storedRequest(new Date(later.getTime() - 60_000), 'repeat@gmail.com');
    expect(await claimAcknowledgement(later)).toBe(fourth);
  });

  it('acknowledges none of the requests of a flood, whatever their addresses', async () => {
    const at = new Date();
    const flooded = await storedRequest(new Date(at.getTime() - 60_000), 'random.1@example.com');
    await database.db.query(
      `update app_private.messages set in_digest = true where kind = 'notification' and booking_id = $1`,
      [flooded],
    );
    expect(await claimAcknowledgement(at)).toBeUndefined();
    const { rows } = await database.db.query(
      `select 1 from app_private.messages where kind = 'acknowledgement' and booking_id = $1`,
      [flooded],
    );
    expect(rows).toEqual([]);
  });

  it('gives up on an acknowledgement once its request is too old', async () => {
    const at = new Date('2026-06-01T09:00:00Z');
    const id = await storedRequest(new Date(at.getTime() - 30 * 60_000), 'late@example.com');
    expect(await claimAcknowledgement(at)).toBe(id);
    expect(await claimAcknowledgement(new Date(at.getTime() + hour))).toBeUndefined();
    const { rows } = await database.db.query<{ state: string }>(
      `select coalesce(outcome, 'sending') as state from app_private.messages
        where kind = 'acknowledgement' and booking_id = $1`,
      [id],
    );
    expect(rows[0]?.state).toBe('expired');
  });
});
