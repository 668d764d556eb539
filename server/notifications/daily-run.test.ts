import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { shortReference } from '../../core/booking-reference.ts';
import type { OpenedDatabase } from '../db/open-database.ts';
import { testEngines } from '../testing/helpers.ts';
import {
  freePort,
  startSmtpPeer,
  startWebhookReceiver,
  type SmtpPeer,
} from '../testing/notification-peers.ts';
import { createEmailChannel, createWebhookChannel, type NotificationChannel } from './channels.ts';
import { noChannelNote, runDaily, type DailyRunOptions } from './daily-run.ts';

/**
 * The daily run (purge and summary) against a real database and a real SMTP
 * server, at a clock given to it: the days the clocks change included.
 */

const practice = 'practice@example.com';
const seven = { hour: 7, minute: 0 };

describe.each(testEngines('daily'))('the daily run on $name', (engine) => {
  let opened: OpenedDatabase;
  let cleanUp: () => Promise<void>;
  const closers: (() => Promise<void>)[] = [];
  const infos: string[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    ({ opened, cleanUp } = await engine.open());
  });

  afterAll(async () => {
    await opened?.close();
    await cleanUp?.();
  });

  beforeEach(async () => {
    await opened.db.query('delete from public.bookings');
    await opened.db.query('delete from app_private.daily_runs');
    infos.length = 0;
    errors.length = 0;
  });

  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  async function smtpPeer(): Promise<SmtpPeer> {
    const peer = await startSmtpPeer();
    closers.push(peer.close);
    return peer;
  }

  function emailTo(port: number): NotificationChannel {
    const channel = createEmailChannel({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      to: [practice],
      from: 'Rochester Hijama <bookings@rochester-hijama.example>',
    });
    closers.push(async () => channel.close());
    return channel;
  }

  function run(
    now: string,
    channels: NotificationChannel[],
    options: Partial<DailyRunOptions> = {},
  ) {
    return runDaily({
      db: opened.db,
      channels,
      schedule: { at: seven, summary: true },
      retention: { count: 12, unit: 'm' },
      retryMs: 60_000,
      log: { info: (message) => infos.push(message), error: (message) => errors.push(message) },
      now: () => new Date(now),
      ...options,
    });
  }

  /** A request received at `createdAt`, stored as the database owner (created_at cannot come through the API). */
  async function storeRequest(
    createdAt: string,
    fullName: string,
    instagram: string | null = null,
  ) {
    const id = crypto.randomUUID();
    await opened.db.query(
      `insert into public.bookings (id, created_at, full_name, phone, email, instagram)
       values ($1, $2, $3, '07700 900123', 'guest@example.com', $4)`,
      [id, createdAt, fullName, instagram],
    );
    return id;
  }

  it('sends "no new requests" at 07:00 BST on the Saturday before the clocks go back, once', async () => {
    const peer = await smtpPeer();
    const channels = [emailTo(peer.port)];
    // 06:59 BST: not yet.
    expect(await run('2026-10-24T05:59:00Z', channels)).toEqual({ outcome: 'not due' });
    expect(peer.mails).toHaveLength(0);

    expect(await run('2026-10-24T06:00:00Z', channels)).toEqual({
      outcome: 'sent',
      day: '2026-10-24',
      purged: 0,
    });
    expect(await run('2026-10-24T06:05:00Z', channels)).toEqual({
      outcome: 'already done',
      day: '2026-10-24',
    });
    expect(peer.mails).toHaveLength(1);
    const mail = peer.mails[0]!;
    expect(mail.to).toEqual([practice]);
    expect(mail.parsed.subject).toBe('Daily summary: no new requests');
    expect(mail.parsed.messageId).toBe('<daily-summary-2026-10-24@rochester-hijama.example>');
    expect(mail.parsed.text).toContain(
      'No new requests in the 24 hours since Friday 23 October 2026, 07:00 BST.',
    );
    expect(infos).toContain(
      'Sent the daily summary of 2026-10-24 by e-mail to practice@example.com.',
    );
  });

  it('lists the requests of the last 24 hours with how long each has waited, at 07:00 GMT on the Sunday the clocks go back', async () => {
    const peer = await smtpPeer();
    const channels = [emailTo(peer.port)];
    const evening = await storeRequest('2026-10-24T18:30:00Z', 'Amina Khan', '@amina.k');
    // 01:30 GMT, the second 01:30 of the night.
    const night = await storeRequest('2026-10-25T01:30:00Z', 'Night <Owl>');
    // Before the window, and past the retention period: neither is listed, the second is deleted.
    await storeRequest('2026-10-24T06:59:00Z', 'Yesterday Morning');
    await storeRequest('2025-10-20T12:00:00Z', 'Last Year');
    // One notified, one failing, one pending.
    await opened.db.query(
      `update app_private.booking_notifications set completed_at = now(), attempts = 1 where booking_id = $1`,
      [evening],
    );
    await opened.db.query(
      `update app_private.booking_notifications
          set attempts = 4, last_error = 'e-mail to practice@example.com: Invalid login: 535 Authentication failed (EAUTH)'
        where booking_id = $1`,
      [night],
    );

    // 06:30 UTC is 06:30 GMT that day: not due yet, though it would be in BST.
    expect((await run('2026-10-25T06:30:00Z', channels)).outcome).toBe('not due');
    expect(await run('2026-10-25T07:00:00Z', channels)).toEqual({
      outcome: 'sent',
      day: '2026-10-25',
      purged: 1,
    });
    expect(peer.mails).toHaveLength(1);
    const mail = peer.mails[0]!;
    expect(mail.parsed.subject).toBe(
      'Daily summary: 2 new booking requests, 1 notification failing',
    );
    const text = mail.parsed.text ?? '';
    expect(text).toContain(
      [
        '2 booking requests in the 24 hours since Saturday 24 October 2026, 08:00 BST, oldest first:',
        '',
        `1. Amina Khan, ref ${shortReference(evening)}`,
        '   Received Saturday 24 October 2026, 19:30 BST: has waited 12 h 30 min; reply by Sunday 25 October 2026, 18:30 GMT',
        '   Phone 07700 900123, e-mail guest@example.com, Instagram amina.k',
        '   Notified: yes',
        '',
        `2. Night <Owl>, ref ${shortReference(night)}`,
        '   Received Sunday 25 October 2026, 01:30 GMT: has waited 5 h 30 min; reply by Monday 26 October 2026, 01:30 GMT',
        '   Phone 07700 900123, e-mail guest@example.com',
        '   Notified: NO, failing after 4 attempts: e-mail to practice@example.com: Invalid login: 535 Authentication failed (EAUTH)',
        '',
        'This notification is failing (retried until it gets through):',
        `  Ref ${shortReference(night)}, received Sunday 25 October 2026, 01:30 GMT, 4 attempts: e-mail to practice@example.com: Invalid login: 535 Authentication failed (EAUTH)`,
      ].join('\n'),
    );
    expect(text).not.toContain('Yesterday Morning');
    expect(text).toContain(
      '1 request older than 12 months was deleted, as the privacy notice promises.',
    );
    const { rows } = await opened.db.query<{ full_name: string }>(
      'select full_name from public.bookings order by created_at',
    );
    expect(rows.map((row) => row.full_name)).toEqual([
      'Yesterday Morning',
      'Amina Khan',
      'Night <Owl>',
    ]);
  });

  it('is due at 07:00 BST on the last Sunday of March, an hour earlier in UTC than the day before', async () => {
    const peer = await smtpPeer();
    const channels = [emailTo(peer.port)];
    expect((await run('2026-03-28T06:30:00Z', channels)).outcome).toBe('not due');
    expect((await run('2026-03-28T07:00:00Z', channels)).outcome).toBe('sent');
    expect((await run('2026-03-29T05:59:00Z', channels)).outcome).toBe('not due');
    expect((await run('2026-03-29T06:00:00Z', channels)).outcome).toBe('sent');
    expect(peer.mails.map((mail) => mail.parsed.messageId)).toEqual([
      '<daily-summary-2026-03-28@rochester-hijama.example>',
      '<daily-summary-2026-03-29@rochester-hijama.example>',
    ]);
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

  it('tries a summary that no channel took again after the retry delay, and through the webhook alone', async () => {
    const down = await freePort();
    const failed = await run('2026-11-03T07:00:00Z', [emailTo(down)], { retryMs: 200 });
    expect(failed).toMatchObject({ outcome: 'failed', day: '2026-11-03' });
    expect(failed.error).toMatch(/ECONNREFUSED/);
    expect(errors[0]).toMatch(
      /^The daily summary of 2026-11-03 could not be sent: .*It is tried again later\.$/,
    );
    // Within the delay, nobody takes the day.
    expect((await run('2026-11-03T07:01:00Z', [emailTo(down)])).outcome).toBe('already done');

    await new Promise((resolve) => setTimeout(resolve, 300));
    const hook = await startWebhookReceiver();
    closers.push(hook.close);
    const sent = await run('2026-11-03T07:10:00Z', [emailTo(down), createWebhookChannel(hook.url)]);
    expect(sent.outcome).toBe('sent');
    expect(hook.requests).toHaveLength(1);
    expect(hook.requests[0]!.headers['idempotency-key']).toBe('daily-summary-2026-11-03');
    expect(JSON.parse(hook.requests[0]!.body)).toEqual({
      type: 'practice.daily_summary',
      summary: {
        day: '2026-11-03',
        subject: 'Daily summary: no new requests',
        text: expect.stringContaining('No new requests in the 24 hours since'),
      },
    });
  });

  it('still purges, once a day, with the summary off', async () => {
    await storeRequest('2025-10-20T12:00:00Z', 'Last Year');
    const peer = await smtpPeer();
    const off = { schedule: { at: seven, summary: false } };
    expect(await run('2026-11-05T07:00:00Z', [emailTo(peer.port)], off)).toEqual({
      outcome: 'done',
      day: '2026-11-05',
      purged: 1,
    });
    await storeRequest('2025-10-21T12:00:00Z', 'Also Last Year');
    expect((await run('2026-11-05T08:00:00Z', [emailTo(peer.port)], off)).outcome).toBe(
      'already done',
    );
    expect(peer.mails).toHaveLength(0);
  });

  it("purges without a channel but leaves the day's summary to a later run that has one", async () => {
    await storeRequest('2025-10-20T12:00:00Z', 'Last Year');
    expect(await run('2026-11-04T07:00:00Z', [])).toEqual({
      outcome: 'done',
      day: '2026-11-04',
      purged: 1,
    });
    const { rows } = await opened.db.query(
      `select done_at is null as open, next_attempt_at <= now() as due, last_error
         from app_private.daily_runs where day = '2026-11-04'`,
    );
    expect(rows).toEqual([{ open: true, due: true, last_error: noChannelNote }]);
    // Run again without a channel: it purges again, and still leaves the summary.
    expect((await run('2026-11-04T07:30:00Z', [])).outcome).toBe('done');

    // Started later that day with SMTP: the summary goes out, once.
    const peer = await smtpPeer();
    expect(await run('2026-11-04T09:00:00Z', [emailTo(peer.port)])).toEqual({
      outcome: 'sent',
      day: '2026-11-04',
      purged: 0,
    });
    expect(peer.mails.map((mail) => mail.parsed.messageId)).toEqual([
      '<daily-summary-2026-11-04@rochester-hijama.example>',
    ]);
    expect((await run('2026-11-04T10:00:00Z', [emailTo(peer.port)])).outcome).toBe('already done');
    expect(peer.mails).toHaveLength(1);
  });
});
