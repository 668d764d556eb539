import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { testEngines } from '../../../../server/testing/helpers.ts';
import { storeWaitingRequest } from '../../../../server/testing/answer-fixtures.ts';
import { useTestDatabase } from '../../../../server/testing/test-database.ts';
import { freePort, startWebhookReceiver } from '../../../../server/testing/notification-peers.ts';
import { createWebhookChannel } from './channels.ts';
import { alertKinds, createMessageQueue, type MessageKind } from './message-queue.ts';
import { sendOnceToPractice, type SendOnce } from './notifier.ts';
import { createAlertStore } from './practice-alerts.ts';

/**
 * The one queue of messages (message-queue.ts) on its own, against a real
 * database: what every kind is claimed, leased, retried, given back and
 * settled by. The tests of each kind test only what is its own: its message,
 * which of its messages are due, its flood rules. Then the step that sends a
 * message the practice needs once (sendOnceToPractice, notifier.ts), shared
 * by the alerts, the reminders and the daily summary.
 */

const minute = 60_000;

describe.each(testEngines('queue'))('the message queue on $name', (engine) => {
  const database = useTestDatabase(engine);
  const queue = () => createMessageQueue(database.db);

  beforeEach(async () => {
    await database.db.query('delete from public.bookings');
    await database.db.query('delete from app_private.messages');
  });

  /** Adds a message due `dueInMs` from now (in the past when negative); its id. */
  async function add(kind: MessageKind, fields: { day?: string; dueInMs?: number } = {}) {
    const { rows } = await database.db.query<{ id: string }>(
      `insert into app_private.messages (kind, day, details, next_attempt_at)
       values ($1, $2::date, $3::jsonb, now() + make_interval(secs => $4))
       returning id::text`,
      [
        kind,
        fields.day ?? null,
        kind === 'flood' ? '{"threshold": 3}' : null,
        (fields.dueInMs ?? 0) / 1000,
      ],
    );
    return rows[0]!.id;
  }

  /** A booking request, whose notification the database adds; the request's id. */
  async function request(inDigest = false) {
    const id = await storeWaitingRequest(database.db);
    await database.db.query(
      `update app_private.messages set in_digest = $2 where booking_id = $1`,
      [id, inDigest],
    );
    return id;
  }

  async function row(id: string) {
    const { rows } = await database.db.query<{
      attempts: number;
      claimed: boolean;
      outcome: string | null;
      done_at: string | null;
      last_error: string | null;
      due_in_s: number;
      next: string;
    }>(
      `select attempts, claimed_by is not null as claimed, outcome, to_json(next_attempt_at) #>> '{}' as next,
              to_json(done_at) #>> '{}' as done_at, last_error,
              round(extract(epoch from next_attempt_at - now()))::integer as due_in_s
         from app_private.messages where id = $1`,
      [id],
    );
    return rows[0]!;
  }

  /** Ends the lease of `id` at once, as if its notifier had been gone that long. */
  const expireLease = (id: string) =>
    database.db.query(
      `update app_private.messages set next_attempt_at = now() - interval '1 second' where id = $1`,
      [id],
    );

  it('claims the message of the kinds asked due longest, of the day asked, and never one not due', async () => {
    const later = await add('flood', { dueInMs: minute });
    const flood = await add('flood', { dueInMs: -2 * minute });
    const refused = await add('acknowledgement_refused', { dueInMs: -minute });
    await add('daily_run', { day: '2026-11-01', dueInMs: -3 * minute });
    const secondDay = await add('daily_run', { day: '2026-11-02' });

    expect(await queue().claimNext(['reminder'], minute)).toBeUndefined();
    const day = await queue().claimNext(['daily_run'], minute, { day: '2026-11-02' });
    expect(day).toMatchObject({ id: secondDay, kind: 'daily_run', day: '2026-11-02', attempts: 1 });
    const alert = await queue().claimNext(alertKinds, minute);
    expect(alert).toMatchObject({
      id: flood,
      kind: 'flood',
      attempts: 1,
      bookingId: null,
      details: { threshold: 3 },
      sent: new Set(),
    });
    expect(alert!.createdAt).toBeInstanceOf(Date);
    expect((await queue().claimNext(alertKinds, minute))?.id).toBe(refused);
    expect(await queue().claimNext(alertKinds, minute)).toBeUndefined();
    expect((await row(later)).attempts).toBe(0);
  });

  it("never claims alone a request's notification bound for the flood digest", async () => {
    await request(true);
    const alone = await request();
    expect(await queue().claimNext(['notification'], minute)).toMatchObject({
      kind: 'notification',
      bookingId: alone,
    });
    expect(await queue().claimNext(['notification'], minute)).toBeUndefined();
  });

  it("holds a message for its lease; once it expires another notifier claims it, and the first one's writes are lost", async () => {
    const id = await add('flood');
    const first = (await queue().claimNext(alertKinds, minute))!;
    expect(await row(id)).toMatchObject({ attempts: 1, claimed: true, due_in_s: 60 });
    expect(await queue().claimNext(alertKinds, minute)).toBeUndefined();

    await expireLease(id);
    const second = (await queue().claimNext(alertKinds, minute))!;
    expect(second).toMatchObject({ id, attempts: 2 });
    expect(second.claim).not.toBe(first.claim);
    expect(await queue().markSent(first, 'email')).toBe(false);
    expect(await queue().settle(first, 'sent')).toBe(0);
    expect(await queue().retryLater(first, minute, 'late')).toBe(false);
    await queue().release(first);
    expect(await row(id)).toMatchObject({ attempts: 2, claimed: true, outcome: null });
    // The second holder's writes still count.
    expect(await queue().settle(second, 'sent')).toBe(1);
  });

  it('records each channel that took a message, sent again to the others only', async () => {
    await request();
    const claimed = (await queue().claimNext(['notification'], minute))!;
    expect(claimed.sent).toEqual(new Set());
    expect(await queue().markSent(claimed, 'email')).toBe(true);
    expect(await queue().markSent(claimed, 'ntfy')).toBe(true);
    expect(await queue().retryLater(claimed, 0, 'webhook: the webhook answered 500')).toBe(true);
    const retried = (await queue().claimNext(['notification'], minute))!;
    expect(retried).toMatchObject({ attempts: 2, sent: new Set(['email', 'ntfy']) });
  });

  it.each([
    ['keeps the last error without a note', undefined, 'ECONNREFUSED'],
    ['replaces it with a note', 'All delivered since.', 'All delivered since.'],
    ['clears it with a null note', null, null],
  ])('settles a message for good and %s', async (_, note, lastError) => {
    const id = await add('flood');
    const failed = (await queue().claimNext(alertKinds, minute))!;
    await queue().retryLater(failed, 0, 'ECONNREFUSED');
    const claimed = (await queue().claimNext(alertKinds, minute))!;
    const at = new Date('2026-11-02T07:00:00Z');
    expect(await queue().settle(claimed, 'withdrawn', { note, at })).toBe(1);
    expect(await row(id)).toMatchObject({
      claimed: false,
      outcome: 'withdrawn',
      last_error: lastError,
    });
    expect(new Date((await row(id)).done_at!)).toEqual(at);
    // Settled: never claimed again, even once due.
    await expireLease(id);
    expect(await queue().claimNext(alertKinds, minute)).toBeUndefined();
  });

  it('gives a message back for a retry after a delay with its reason, or at once without counting the attempt', async () => {
    const id = await add('flood');
    const claimed = (await queue().claimNext(alertKinds, minute))!;
    expect(await queue().retryLater(claimed, 10 * minute, 'x'.repeat(1500))).toBe(true);
    const waiting = await row(id);
    expect(waiting).toMatchObject({ attempts: 1, claimed: false, outcome: null, due_in_s: 600 });
    // Cut to the longest the table keeps.
    expect(waiting.last_error).toHaveLength(1000);
    expect(await queue().claimNext(alertKinds, minute)).toBeUndefined();

    // At the notifier's clock, when given one.
    await expireLease(id);
    const again = (await queue().claimNext(alertKinds, minute))!;
    const at = new Date('2026-11-02T07:00:00Z');
    expect(await queue().retryLater(again, minute, 'refused', at)).toBe(true);
    expect(new Date((await row(id)).next)).toEqual(new Date(at.getTime() + minute));

    await expireLease(id);
    const stopped = (await queue().claimNext(alertKinds, minute))!;
    expect(stopped.attempts).toBe(3);
    await queue().release(stopped);
    expect(await row(id)).toMatchObject({ attempts: 2, claimed: false, due_in_s: 0 });
    expect((await queue().claimNext(alertKinds, minute))?.attempts).toBe(3);
  });

  it('ends every lease at once for a notifier alone on its database, leaving what is settled', async () => {
    const held = await add('flood');
    const settled = await add('no_client_address');
    const waiting = await add('notification_failing', { dueInMs: 10 * minute });
    await queue().claimNext(alertKinds, minute);
    const done = (await queue().claimNext(alertKinds, minute))!;
    await queue().settle(done, 'sent');
    expect(await queue().releaseAllClaims()).toBe(1);
    expect(await row(held)).toMatchObject({ claimed: false, attempts: 1, due_in_s: 0 });
    expect(await row(settled)).toMatchObject({ outcome: 'sent' });
    expect((await row(waiting)).due_in_s).toBe(600);
  });

  describe('sendOnceToPractice', () => {
    const logged: string[] = [];
    beforeEach(() => (logged.length = 0));

    /** Sends an alert, claimed after a failed attempt, through webhooks at `urls`. */
    async function sendOnce(urls: string[], fields: Partial<SendOnce> = {}) {
      const id = await add('flood');
      const alerts = createAlertStore(database.db);
      await queue().retryLater((await alerts.claimNext(minute))!.message, 0, 'an earlier failure');
      const alert = (await alerts.claimNext(minute))!;
      const outcome = await sendOnceToPractice({
        channels: urls.map(createWebhookChannel),
        queue: queue(),
        held: alert.message,
        retryMs: 10 * minute,
        log: { info: (line) => logged.push(`info ${line}`), error: (line) => logged.push(line) },
        send: (channel) => channel.sendAlert(alert),
        sent: (by) => `sent by ${by}`,
        failed: (error) => `failed: ${error}`,
        partly: (error) => `partly: ${error}`,
        ...fields,
      });
      return { outcome, row: await row(id) };
    }

    it.each([
      ['clearing the last error', false, null],
      ['keeping the last error when asked', true, 'an earlier failure'],
    ])(
      'settles a message sent once any channel took it, %s, the others only logged',
      async (_, keepError, lastError) => {
        const hook = await startWebhookReceiver();
        onTestFinished(hook.close);
        const down = `http://127.0.0.1:${await freePort()}/`;
        const sent = await sendOnce([down, hook.url], { keepError });
        expect(sent.outcome).toEqual({ sent: true, settled: 1 });
        expect(sent.row).toMatchObject({ outcome: 'sent', last_error: lastError });
        expect(hook.requests).toHaveLength(1);
        expect(logged).toEqual([
          expect.stringMatching(/^info sent by webhook to http:\/\/127\.0\.0\.1:\d+$/),
          expect.stringMatching(/^partly: webhook to .*: fetch failed$/),
        ]);
        // Without words for it, a failure beside a channel that took it is not logged.
        logged.length = 0;
        await sendOnce([down, hook.url], { partly: undefined });
        expect(logged).toEqual([expect.stringMatching(/^info sent by/)]);
      },
    );

    it('gives it back with every reason when no channel took it, due again after the delay', async () => {
      const hook = await startWebhookReceiver([503]);
      onTestFinished(hook.close);
      const at = new Date('2026-11-02T07:00:00Z');
      const down = `http://127.0.0.1:${await freePort()}/`;
      const { outcome, row } = await sendOnce([down, hook.url], { at });
      const error = expect.stringMatching(
        /: fetch failed; webhook to .*: the webhook answered 503/,
      );
      expect(outcome).toEqual({ sent: false, error });
      expect(row).toMatchObject({
        outcome: null,
        claimed: false,
        attempts: 2,
        last_error: error,
      });
      expect(new Date(row.next)).toEqual(new Date(at.getTime() + 10 * minute));
      expect(logged).toEqual([`failed: ${row.last_error}`]);
    });
  });
});
