import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { shortReference } from '../core/booking-reference.ts';
import { practice } from '../content/practice.ts';
import type { Database } from '../db/database.ts';
import { openPostgres } from '../db/postgres.ts';
import {
  noBookingLimits,
  testDatabaseUrl,
  testEngines,
  type TestEngine,
} from '../../../../server/testing/helpers.ts';
import { storeWaitingRequest } from '../../../../server/testing/answer-fixtures.ts';
import {
  emailChannelTo,
  freePort,
  testSiteUrl,
  type NtfyPeer,
  type SmtpPeer,
} from '../../../../server/testing/notification-peers.ts';
import { useNotifierHarness } from '../../../../server/testing/notifier-harness.ts';
import { scratchPostgresEngine } from '../../../../server/testing/test-database.ts';
import type { NotificationChannel } from './channels.ts';
import { createNtfyChannel } from './ntfy.ts';
import { createReminderTask } from './reminders.ts';

/**
 * The reminders of waiting requests, sent by the notifier at a faked clock to
 * a real SMTP server and a real ntfy peer, on each database engine: once each,
 * NOTIFY_REMINDER_HOURS before the reply-by time, grouped when due together,
 * never for a flood's requests, at most one reminder every 15 minutes,
 * retried when no channel took it, and once however many notifiers run at the
 * same time. What a reminder says, in UK time on either side of the clock
 * changes, is reminder-message.test.ts's; that an answered request is never
 * reminded is the database's rule
 * (server/db/reminder-and-acknowledgement-claims.test.ts).
 */

const hour = 3_600_000;
const minute = 60_000;
const replyWithinMs = practice.replyWithinHours * hour;
const topic = 'hijama-reminders-3f9c1e7a5b2d';

const at = (iso: string) => new Date(iso);
const plus = (date: Date, ms: number) => new Date(date.getTime() + ms);

/** Stores a request as the table owner, arrived at `createdAt`; its own notification counts as sent. */
async function storeRequest(db: Database, createdAt: Date, fullName = 'Amina Khan') {
  const id = await storeWaitingRequest(db, {
    created_at: createdAt.toISOString(),
    full_name: fullName,
    phone: '07700 900123',
  });
  // Only the reminder is under test: the request's own e-mail is out of the way.
  await db.query(
    `update app_private.messages set done_at = now(), outcome = 'sent', claimed_by = null
      where kind = 'notification' and booking_id = $1`,
    [id],
  );
  return id;
}

const reminderMails = (peer: SmtpPeer) =>
  peer.mails.filter((mail) => mail.parsed.messageId?.startsWith('<reminder-'));

/** How many reminder e-mails named each request, by its short reference. */
function remindedCounts(peer: SmtpPeer, ids: readonly string[]): number[] {
  return ids.map(
    (id) =>
      reminderMails(peer).filter((mail) => mail.parsed.text?.includes(`ref ${shortReference(id)}`))
        .length,
  );
}

const pushTo = (peer: NtfyPeer) =>
  createNtfyChannel({ topicUrl: peer.topicUrl(topic), token: undefined }, testSiteUrl);

/**
 * The notifier harness of a describe block on `engine`, with an SMTP server
 * and an ntfy peer for each test, and notifiers with a reminder task at a
 * clock of the test's, run by hand.
 */
function useReminders(engine: TestEngine) {
  const harness = useNotifierHarness(engine, ['messages']);
  const peers = {
    db: undefined as unknown as Database,
    smtp: undefined as unknown as SmtpPeer,
    ntfy: undefined as unknown as NtfyPeer,
  };

  beforeEach(async () => {
    peers.db = harness.db;
    peers.smtp = await harness.smtpPeer();
    peers.ntfy = await harness.ntfyPeer();
  });

  return Object.assign(peers, {
    errors: harness.errors,
    ntfyPeer: harness.ntfyPeer,
    /** A notifier on `db` (the block's unless given) whose clock is `clock.now`. */
    notifier(
      clock: { now: Date },
      options: { remindHours?: number; channels?: NotificationChannel[]; db?: Database } = {},
    ) {
      const db = options.db ?? harness.db;
      const reminders = createReminderTask({
        siteUrl: testSiteUrl,
        db,
        remindBeforeReplyByMs: (options.remindHours ?? 4) * hour,
        retryMs: 10 * minute,
      });
      const notifier = harness.startNotifier(
        options.channels ?? [emailChannelTo(peers.smtp.port), pushTo(peers.ntfy)],
        { start: false, db, tasks: [reminders], now: () => clock.now },
      );
      return {
        ...notifier,
        /** Sets the clock to `when`, then runs once. */
        runAt(when: Date | string) {
          clock.now = new Date(when);
          return notifier.runOnce();
        },
      };
    },
  });
}

describe.each(testEngines('reminders'))('reminders on $name', (engine) => {
  const harness = useReminders(engine);

  it.each([
    // The default, due just after the clocks go forward: 02:30 BST.
    [4, '2026-03-28T01:30:00Z', 'due tomorrow at 02:30'],
    // Due just before the clocks go back: 01:50 BST.
    [0.5, '2026-10-24T00:50:00Z', 'due at 01:50'],
    // At once, the whole promise ahead.
    [24, '2026-07-01T13:05:00Z', 'due tomorrow at 14:05'],
    // At the reply-by time itself.
    [0, '2026-07-01T13:05:00Z', 'due at 14:05'],
  ])(
    'reminds once, by e-mail and push, NOTIFY_REMINDER_HOURS=%s before the reply-by time and not a minute sooner',
    async (hours, arrivedAt, due) => {
      const id = await storeRequest(harness.db, at(arrivedAt));
      const dueAt = plus(at(arrivedAt), replyWithinMs - hours * hour);
      const notifier = harness.notifier({ now: plus(dueAt, -minute) }, { remindHours: hours });
      await notifier.runOnce();
      expect(reminderMails(harness.smtp)).toHaveLength(0);

      await notifier.runAt(dueAt);
      const subject = `A request waits for a reply; it is ${due}`;
      expect(reminderMails(harness.smtp).map((mail) => mail.parsed.subject)).toEqual([subject]);
      // Long after, and late: never again.
      for (const later of [hour, 3 * 24 * hour]) await notifier.runAt(plus(dueAt, later));
      expect(remindedCounts(harness.smtp, [id])).toEqual([1]);
      // The same reminder pushed, once.
      expect(harness.ntfy.messages.map((message) => message.title)).toEqual([subject]);
      expect(harness.ntfy.messages[0]!.actions.at(-1)).toMatchObject({
        action: 'view',
        label: 'Mark as answered',
        url: expect.stringMatching(/#answer=/),
      });
      expect(harness.errors).toEqual([]);
    },
  );

  // What is done with a reminder no channel took, or one took, is the step's
  // (message-queue.test.ts); here, that it waits at the notifier's clock.
  it("gives a reminder that no channel took back, and sends it after the retry delay at the notifier's clock", async () => {
    await storeRequest(harness.db, at('2026-07-01T09:00:00Z'));
    const failingPush = await harness.ntfyPeer({ statuses: [503] });
    const notifier = harness.notifier(
      { now: at('2026-07-02T05:00:00Z') },
      { channels: [emailChannelTo(await freePort()), pushTo(failingPush)] },
    );
    for (const [elapsed, pushed] of [
      [0, 0],
      [10 * minute - 1000, 0],
      [10 * minute, 1],
      [hour, 1],
    ] as const) {
      await notifier.runAt(plus(at('2026-07-02T05:00:00Z'), elapsed));
      expect(failingPush.messages).toHaveLength(pushed);
    }
    expect(harness.errors).toEqual([
      expect.stringMatching(/^The reminder .* could not be sent: .*503.*Next attempt in 10 min\.$/),
      // Taken by the push: done, the e-mail's failure only logged.
      expect.stringMatching(/^The reminder .* did not go through every channel: e-mail/),
    ]);
  });

  it('counts a step of reminders that cannot run as failed, so that the run does not report all well', async () => {
    // As after an old migration pasted again: a claim function that cannot run.
    const claim = 'app_private.claim_due_reminders(uuid, interval, interval, integer, timestamptz)';
    await harness.db.query(`alter function ${claim} rename to claim_due_reminders_gone`);
    onTestFinished(async () => {
      await harness.db.query(
        `alter function ${claim.replace('reminders', 'reminders_gone')} rename to claim_due_reminders`,
      );
    });
    const notifier = harness.notifier({ now: at('2026-07-02T05:00:00Z') });
    expect(await notifier.runOnce()).toEqual({ sent: 0, failed: 1 });
    expect(harness.errors).toEqual([
      expect.stringMatching(/^Notifications: the reminders failed: .*claim_due_reminders/),
    ]);
  });

  it("never reminds of a flood's requests, and sends at most one reminder every 15 minutes", async () => {
    const firstDue = at('2026-11-25T10:00:00Z');
    const remindAfterMs = replyWithinMs - 4 * hour;
    // 24 requests of a flood and 24 others, due every minute and every 3 minutes.
    const flooded: string[] = [];
    const others: string[] = [];
    for (let index = 0; index < 24; index += 1) {
      flooded.push(
        await storeRequest(harness.db, plus(firstDue, index * minute - remindAfterMs), 'Robot'),
      );
      others.push(
        await storeRequest(harness.db, plus(firstDue, index * 3 * minute - remindAfterMs)),
      );
    }
    await harness.db.query(
      `update app_private.messages set in_digest = true
        where kind = 'notification' and booking_id = any($1::uuid[])`,
      [flooded],
    );
    const notifier = harness.notifier({ now: firstDue });
    // The minutes, from the first due, at which a reminder went out: a poll every 15 s for 75 minutes.
    const sentAtMinutes: number[] = [];
    for (let elapsed = 0; elapsed <= 75 * minute; elapsed += 15_000) {
      const before = reminderMails(harness.smtp).length;
      await notifier.runAt(plus(firstDue, elapsed));
      if (reminderMails(harness.smtp).length > before) sentAtMinutes.push(elapsed / minute);
    }
    // Six reminders for the 24 others: those due together are grouped in one.
    expect(sentAtMinutes).toEqual([0, 15, 30, 45, 60, 75]);
    expect(harness.ntfy.messages).toHaveLength(sentAtMinutes.length);
    expect(remindedCounts(harness.smtp, others)).toEqual(others.map(() => 1));
    expect(remindedCounts(harness.smtp, flooded)).toEqual(flooded.map(() => 0));
    expect(harness.errors).toEqual([]);
  });
});

describe.runIf(testDatabaseUrl)('reminders from two notifiers at once on PostgreSQL', () => {
  const scratch = scratchPostgresEngine(noBookingLimits);
  const harness = useReminders(scratch.engine);
  let second: Database;

  beforeAll(async () => {
    // The other notifier's own connections, as another server's would be.
    second = await openPostgres(scratch.url);
  });

  afterAll(async () => {
    await second?.close();
  });

  it('reminds of each request exactly once', async () => {
    const clock = { now: at('2026-10-25T00:00:00Z') };
    const one = harness.notifier(clock);
    const other = harness.notifier(clock, { db: second });
    const ids: string[] = [];
    // Rounds of requests due together, across the autumn clock change.
    for (let round = 0; round < 6; round += 1) {
      const arrived = plus(at('2026-10-23T22:00:00Z'), round * 30 * minute);
      for (let index = 0; index < 5; index += 1) {
        ids.push(
          await storeRequest(harness.db, plus(arrived, index * 1000), `Visitor ${round}.${index}`),
        );
      }
      clock.now = plus(arrived, replyWithinMs - 4 * hour + 5000);
      await Promise.all([one.runOnce(), other.runOnce(), one.runOnce(), other.runOnce()]);
    }
    clock.now = at('2026-10-27T00:00:00Z');
    await Promise.all([one.runOnce(), other.runOnce()]);

    expect(remindedCounts(harness.smtp, ids)).toEqual(ids.map(() => 1));
    // One reminder a round: each round's five requests, together.
    expect(reminderMails(harness.smtp)).toHaveLength(6);
    expect(harness.ntfy.messages).toHaveLength(6);
    const { rows } = await harness.db.query<{ reminded: number }>(
      `select count(*)::integer as reminded from app_private.messages
        where kind = 'reminder' and outcome = 'sent' and claimed_by is null`,
    );
    expect(rows[0]?.reminded).toBe(ids.length);
    expect(harness.errors).toEqual([]);
  });
});
