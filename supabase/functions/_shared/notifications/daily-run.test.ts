import { practice } from '../content/practice.ts';
import { describe, expect, it } from 'vitest';
import { answerLink } from '../core/answer-link.ts';
import { shortReference } from '../core/booking-reference.ts';
import { storeWaitingRequest } from '../../../../server/testing/answer-fixtures.ts';
import { useNotifierHarness } from '../../../../server/testing/notifier-harness.ts';
import { testEngines } from '../../../../server/testing/helpers.ts';
import {
  emailChannelTo,
  freePort,
  practiceInbox,
} from '../../../../server/testing/notification-peers.ts';
import { createWebhookChannel, numberedMessageKey, type NotificationChannel } from './channels.ts';
import { noChannelNote, runDaily, type DailyRunOptions } from './daily-run.ts';

const { replyWithinHours } = practice;

/**
 * The summary's text without its "Mark as answered" lines, once each of
 * `ids` is checked to have one: a signed link to that very request.
 */
function withoutMarkLinks(text: string, ids: readonly string[]): string {
  const prefix = answerLink(practice.url, '').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  for (const id of ids) {
    expect(text).toMatch(
      new RegExp(`\\n {2}Mark as answered: ${prefix}${id}\\.\\d+\\.[0-9a-f]{64}\\n`),
    );
  }
  expect(text.match(/\n {2}Mark as answered: /g) ?? []).toHaveLength(ids.length);
  return text.replace(/\n {2}Mark as answered: \S+/g, '');
}

/**
 * The daily run (purge and summary) against a real database and a real SMTP
 * server, at a clock given to it: the days the clocks change included. The
 * answers are stored with the times they were given, so that what waits, and
 * the week's record, are read at the run's clock, not the database's.
 */

const seven = { hour: 7, minute: 0 };

describe.each(testEngines('daily'))('the daily run on $name', (engine) => {
  const harness = useNotifierHarness(engine, ['messages']);
  const { errors, infos, smtpPeer } = harness;

  function emailTo(port: number): NotificationChannel {
    const channel = emailChannelTo(port);
    harness.afterTest(async () => channel.close());
    return channel;
  }

  function run(
    now: string,
    channels: NotificationChannel[],
    options: Partial<DailyRunOptions> = {},
  ) {
    return runDaily({
      db: harness.db,
      channels,
      schedule: { at: seven, summary: true },
      siteUrl: practice.url,
      retention: { count: 12, unit: 'mo' },
      retryMs: 60_000,
      log: { info: (message) => infos.push(message), error: (message) => errors.push(message) },
      now: () => new Date(now),
      ...options,
    });
  }

  /** A request received at `createdAt`, stored as the database owner (created_at cannot come through the API). */
  const storeRequest = (created_at: string, full_name: string, instagram: string | null = null) =>
    storeWaitingRequest(harness.db, {
      created_at,
      full_name,
      instagram,
      phone: '07700 900123',
      email: 'guest@example.com',
    });

  /** Marks `bookingId` answered at `answeredAt`, as the link or the command records it. */
  async function storeAnswer(
    bookingId: string,
    answeredAt: string,
    markedBy: 'link' | 'command' = 'link',
  ) {
    await harness.db.query(
      `insert into app_private.booking_answers (booking_id, answered_at, marked_by)
       values ($1, $2, $3)`,
      [bookingId, answeredAt, markedBy],
    );
  }

  // When the UK day's run is due (07:00 BST, 07:00 GMT) is dailyRunDue's, and what
  // the summary says composeDailySummary's (daily-summary.test.ts); here, that each
  // UK day has one run, and only once due.
  it('does the run once each UK day: the Saturday before the clocks go back, then the Sunday they do', async () => {
    const peer = await smtpPeer();
    const channels = [emailTo(peer.port)];
    // 06:59 BST: not yet.
    expect(await run('2026-10-24T05:59:00Z', channels)).toEqual({ outcome: 'not due' });
    const sent = await run('2026-10-24T06:00:00Z', channels);
    expect(sent).toEqual({ outcome: 'sent', day: '2026-10-24', purged: 0 });
    const again = await run('2026-10-24T06:05:00Z', channels);
    expect(again).toEqual({ outcome: 'already done', day: '2026-10-24' });
    // The next UK day, at 07:00 GMT, has its own.
    expect((await run('2026-10-25T07:00:00Z', channels)).day).toBe('2026-10-25');
    expect(peer.mails.map((mail) => [mail.to, mail.parsed.messageId])).toEqual(
      ['2026-10-24', '2026-10-25'].map((day) => [
        [practiceInbox],
        expect.stringMatching(
          new RegExp(`^<daily-summary-${day}-\\d+-[0-9a-z]+@rochester-hijama\\.example>$`),
        ),
      ]),
    );
    // Another database's run of the same day (a trial install sending to the same inbox):
    // Gmail keeps one message per Message-ID, so its summary must not have this one's.
    await harness.db.query(`delete from app_private.messages where kind = 'daily_run'`);
    await run('2026-10-25T07:00:00Z', channels);
    expect(peer.mails[2]!.parsed.messageId).not.toBe(peer.mails[1]!.parsed.messageId);
    expect(infos).toContain(
      'Sent the daily summary of 2026-10-24 by e-mail to practice@example.com.',
    );
  });

  it("lists the requests since the day before's summary was due (25 hours) with how long each has waited, at 07:00 GMT on the Sunday the clocks go back", async () => {
    const peer = await smtpPeer();
    const evening = await storeRequest('2026-10-24T18:30:00Z', 'Amina Khan', '@amina.k');
    // 01:30 GMT, the second 01:30 of the night.
    const night = await storeRequest('2026-10-25T01:30:00Z', 'Night <Owl>');
    // 07:59 BST, after Saturday's summary at 07:00 BST: in this one's list, though more than
    // 24 hours back (the night has 25). Past the retention period: deleted.
    const morning = await storeRequest('2026-10-24T06:59:00Z', 'Yesterday Morning');
    await storeRequest('2025-10-20T12:00:00Z', 'Last Year');
    // Answered after the clocks went back: 19:30 BST to 01:15 GMT is 6 h 45 min, not 5 h 45 min.
    await storeAnswer(evening, '2026-10-25T01:15:00Z');
    // One notified, one failing, one pending.
    await harness.db.query(
      `update app_private.messages set done_at = now(), outcome = 'sent', attempts = 1
        where kind = 'notification' and booking_id = $1`,
      [evening],
    );
    await harness.db.query(
      `update app_private.messages
          set attempts = 4, last_error = 'e-mail to practice@example.com: Invalid login: 535 Authentication failed (EAUTH)'
        where kind = 'notification' and booking_id = $1`,
      [night],
    );

    const sent = await run('2026-10-25T07:00:00Z', [emailTo(peer.port)]);
    expect(sent).toEqual({ outcome: 'sent', day: '2026-10-25', purged: 1 });
    expect(peer.mails).toHaveLength(1);
    const mail = peer.mails[0]!;
    expect(mail.parsed.subject).toBe(
      'Daily summary: 2 waiting (1 late), 3 new booking requests, 1 notification failing',
    );
    const text = withoutMarkLinks(mail.parsed.text ?? '', [morning, night]);
    expect(text).toContain(
      [
        'This notification is failing (retried until it gets through):',
        `  Ref ${shortReference(night)}, received Sunday 25 October 2026, 01:30 GMT, 4 attempts: e-mail to practice@example.com: Invalid login: 535 Authentication failed (EAUTH)`,
        'What to check: docs/notifications.md, \u201cWhen a notification fails\u201d.',
        '',
        '2 requests are waiting for a reply (1 late), oldest first:',
        `- 1 min late: Yesterday Morning, ref ${shortReference(morning)}, phone 07700 900123 (reply by Sunday 25 October 2026, 06:59 GMT)`,
        `- 18 h 30 min left: Night <Owl>, ref ${shortReference(night)}, phone 07700 900123 (reply by Monday 26 October 2026, 01:30 GMT)`,
        'Once you have answered one, open its \u201cMark as answered\u201d link; or run `npx hijama answer REF`.',
        '',
        `This week: answered 1 of 2 within ${replyWithinHours} hours, median 6 h 45 min.`,
        '',
        '3 booking requests since Saturday 24 October 2026, 07:00 BST, oldest first:',
        '',
        `1. Yesterday Morning, ref ${shortReference(morning)}`,
        '   Received Saturday 24 October 2026, 07:59 BST: has waited 24 h 01 min; reply by Sunday 25 October 2026, 06:59 GMT',
        '   Phone 07700 900123, e-mail guest@example.com',
        '   Notified: not yet',
        '   Answered: not yet, waiting',
        '',
        `2. Amina Khan, ref ${shortReference(evening)}`,
        '   Received Saturday 24 October 2026, 19:30 BST',
        '   Phone 07700 900123, e-mail guest@example.com, Instagram @amina.k',
        '   Notified: yes',
        '   Answered: yes, Sunday 25 October 2026, 01:15 GMT, 6 h 45 min after it arrived',
        '',
        `3. Night <Owl>, ref ${shortReference(night)}`,
        '   Received Sunday 25 October 2026, 01:30 GMT: has waited 5 h 30 min; reply by Monday 26 October 2026, 01:30 GMT',
        '   Phone 07700 900123, e-mail guest@example.com',
        '   Notified: NO, failing after 4 attempts: e-mail to practice@example.com: Invalid login: 535 Authentication failed (EAUTH)',
        '   Answered: not yet, waiting',
        '',
        'Retention: 1 request older than 12 months was deleted, as the privacy notice promises.',
      ].join('\n'),
    );
  });

  it("lists what waits and the week's record at 07:00 BST on the Sunday the clocks go forward, at the run's clock", async () => {
    const peer = await smtpPeer();
    // The week before 06:00 UTC on 29 March: from 06:00 UTC on 22 March.
    const forgotten = await storeRequest('2026-03-20T10:00:00Z', 'Forgotten Before The Week');
    const quick = await storeRequest('2026-03-23T09:00:00Z', 'Quick Answer');
    await storeAnswer(quick, '2026-03-23T12:10:00Z');
    const slow = await storeRequest('2026-03-24T09:00:00Z', 'Slow Answer');
    await storeAnswer(slow, '2026-03-25T11:00:00Z', 'command');
    const missed = await storeRequest('2026-03-27T08:00:00Z', 'Missed Reply');
    const saturday = await storeRequest('2026-03-28T12:00:00Z', 'Saturday Noon');
    // Answered after the run's clock: still waiting at 06:00 UTC.
    const evening = await storeRequest('2026-03-28T20:00:00Z', 'Saturday Evening');
    await storeAnswer(evening, '2026-03-29T06:30:00Z');
    // 02:30 BST, just after the clocks went forward, answered half an hour later.
    const night = await storeRequest('2026-03-29T01:30:00Z', 'Night After The Change');
    await storeAnswer(night, '2026-03-29T02:00:00Z');

    expect((await run('2026-03-29T06:00:00Z', [emailTo(peer.port)])).outcome).toBe('sent');
    expect(peer.mails).toHaveLength(1);
    const mail = peer.mails[0]!;
    expect(mail.parsed.subject).toBe('Daily summary: 4 waiting (2 late), 3 new booking requests');
    const text = withoutMarkLinks(mail.parsed.text ?? '', [forgotten, missed, saturday, evening]);
    expect(text).toContain(
      [
        '4 requests are waiting for a reply (2 late), oldest first:',
        `- 7 days 20 h late: Forgotten Before The Week, ref ${shortReference(forgotten)}, phone 07700 900123 (reply by Saturday 21 March 2026, 10:00 GMT)`,
        `- 22 h 00 min late: Missed Reply, ref ${shortReference(missed)}, phone 07700 900123 (reply by Saturday 28 March 2026, 08:00 GMT)`,
        `- 6 h 00 min left: Saturday Noon, ref ${shortReference(saturday)}, phone 07700 900123 (reply by Sunday 29 March 2026, 13:00 BST)`,
        `- 14 h 00 min left: Saturday Evening, ref ${shortReference(evening)}, phone 07700 900123 (reply by Sunday 29 March 2026, 21:00 BST)`,
        'Once you have answered one, open its \u201cMark as answered\u201d link; or run `npx hijama answer REF`.',
        '',
        // Quick (3 h 10), slow (26 h, late), missed (never), night (30 min): the median of three answers.
        `This week: answered 2 of 4 within ${replyWithinHours} hours, median 3 h 10 min.`,
        '',
        '3 booking requests since Saturday 28 March 2026, 07:00 GMT, oldest first:',
      ].join('\n'),
    );
    expect(text).toContain(
      [
        `3. Night After The Change, ref ${shortReference(night)}`,
        '   Received Sunday 29 March 2026, 02:30 BST',
        '   Phone 07700 900123, e-mail guest@example.com',
        '   Notified: not yet',
        '   Answered: yes, Sunday 29 March 2026, 03:00 BST, 30 min after it arrived',
      ].join('\n'),
    );
    expect(text.match(/Answered: not yet, waiting/g)).toHaveLength(2);
  });

  it('sends one summary a day when two servers run it at the same moment', async () => {
    const peer = await smtpPeer();
    const reports = await Promise.all([
      run('2026-11-02T08:00:00Z', [emailTo(peer.port)]),
      run('2026-11-02T08:00:00Z', [emailTo(peer.port)]),
    ]);
    expect(reports.map((report) => report.outcome).sort()).toEqual(['already done', 'sent']);
    expect(peer.mails).toHaveLength(1);
  });

  it('reports a summary that no channel took as failed, leaves the day until the retry delay is over, then posts it to the webhook', async () => {
    const failed = await run('2026-11-03T07:00:00Z', [emailTo(await freePort())]);
    expect(failed).toMatchObject({ outcome: 'failed', day: '2026-11-03', purged: 0 });
    expect(failed.error).toMatch(/ECONNREFUSED/);
    expect(errors).toEqual([
      expect.stringMatching(
        /^The daily summary of 2026-11-03 could not be sent: .*It is tried again later\.$/,
      ),
    ]);
    // Within the delay (retryMs), nobody takes the day; after it, the next run does.
    expect((await run('2026-11-03T07:01:00Z', [])).outcome).toBe('already done');
    await harness.db.query(
      `update app_private.messages set next_attempt_at = now() - interval '1 minute' where day = '2026-11-03'`,
    );
    const hook = await harness.webhookReceiver();
    expect((await run('2026-11-03T07:10:00Z', [createWebhookChannel(hook.url)])).outcome).toBe(
      'sent',
    );
    expect(hook.requests).toHaveLength(1);
    // The key of the day's run row, the same at every attempt.
    const { rows } = await harness.db.query<{ id: string; created_at: Date }>(
      `select id::text, created_at from app_private.messages where day = '2026-11-03'`,
    );
    expect(hook.requests[0]!.headers['idempotency-key']).toBe(
      numberedMessageKey('daily-summary-2026-11-03', rows[0]!.id, rows[0]!.created_at),
    );
    expect(JSON.parse(hook.requests[0]!.body)).toEqual({
      type: 'practice.daily_summary',
      summary: {
        day: '2026-11-03',
        subject: 'Daily summary: no new requests',
        text: expect.stringContaining('No new requests since Monday 2 November 2026, 07:00 GMT.'),
      },
    });
  });

  it("still purges, once a day, with the summary off, and the visitors' networks older than the limits' hour", async () => {
    await storeRequest('2025-10-20T12:00:00Z', 'Last Year');
    await harness.db.query(
      `insert into app_private.booking_clients (network, email_digest, created_at)
       values ('198.51.100.7', 'x', '2026-11-04T18:00:00Z'), ('198.51.100.8', 'y', '2026-11-05T06:30:00Z')`,
    );
    const peer = await smtpPeer();
    const off = { schedule: { at: seven, summary: false } };
    const done = await run('2026-11-05T07:00:00Z', [emailTo(peer.port)], off);
    expect(done).toEqual({ outcome: 'done', day: '2026-11-05', purged: 1 });
    const { rows: networks } = await harness.db.query<{ network: string }>(
      'select network from app_private.booking_clients',
    );
    expect(networks).toEqual([{ network: '198.51.100.8' }]);
    await storeRequest('2025-10-21T12:00:00Z', 'Also Last Year');
    expect((await run('2026-11-05T08:00:00Z', [emailTo(peer.port)], off)).outcome).toBe(
      'already done',
    );
    expect(peer.mails).toHaveLength(0);
  });

  it('deletes nothing by a period shorter than a month, and the summary says what to set, not that it failed', async () => {
    await storeRequest('2026-10-20T12:00:00Z', 'Two Weeks Ago');
    const peer = await smtpPeer();
    const slip = { retention: { count: 12, unit: 'd' } as const };
    const sent = await run('2026-11-05T07:00:00Z', [emailTo(peer.port)], slip);
    expect(sent).toEqual({ outcome: 'sent', day: '2026-11-05' });
    expect(peer.mails[0]!.parsed.text).toContain(
      'Retention: RETENTION=12d is shorter than a month, so nothing is deleted: set it to 28d',
    );
    expect(peer.mails[0]!.parsed.text).not.toContain('failed');
    expect(errors).toEqual([]);
  });

  it("purges without a channel but leaves the day's summary to a later run that has one", async () => {
    await storeRequest('2025-10-20T12:00:00Z', 'Last Year');
    const done = await run('2026-11-04T07:00:00Z', []);
    expect(done).toEqual({ outcome: 'done', day: '2026-11-04', purged: 1 });
    const { rows } = await harness.db.query(
      `select done_at is null as open, next_attempt_at <= now() as due, last_error
         from app_private.messages where day = '2026-11-04'`,
    );
    expect(rows).toEqual([{ open: true, due: true, last_error: noChannelNote }]);
    // Run again without a channel: it purges again, and still leaves the summary.
    expect((await run('2026-11-04T07:30:00Z', [])).outcome).toBe('done');

    // Started later that day with SMTP: the summary goes out, once.
    const peer = await smtpPeer();
    const sent = await run('2026-11-04T09:00:00Z', [emailTo(peer.port)]);
    expect(sent).toEqual({ outcome: 'sent', day: '2026-11-04', purged: 0 });
    expect(peer.mails.map((mail) => mail.parsed.messageId)).toEqual([
      expect.stringMatching(/^<daily-summary-2026-11-04-\d+-[0-9a-z]+@/),
    ]);
    expect((await run('2026-11-04T10:00:00Z', [emailTo(peer.port)])).outcome).toBe('already done');
    expect(peer.mails).toHaveLength(1);
  });
});
