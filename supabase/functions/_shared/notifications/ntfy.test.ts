import { describe, expect, it } from 'vitest';
import { shortReference } from '../core/booking-reference.ts';
import { testEngines } from '../../../../server/testing/helpers.ts';
import {
  emailChannelTo as emailTo,
  freePort,
  testSiteUrl,
  waitFor,
  type NtfyPeer,
} from '../../../../server/testing/notification-peers.ts';
import { useNotifierHarness } from '../../../../server/testing/notifier-harness.ts';
import { bookingWithId } from '../../../../server/testing/booking-samples.ts';
import { createBookingAnswers } from '../db/booking-answers.ts';
import { runDaily } from './daily-run.ts';
import { createNtfyChannel, parseTopicUrl } from './ntfy.ts';

/**
 * The ntfy push channel against a real HTTP peer that speaks ntfy's publish
 * API, beside a real SMTP server, on each database engine: what a push says.
 * That a channel's failure holds up no other, and is retried alone, is the
 * notifier's rule for every channel (notifier.test.ts).
 */

const topic = 'hijama-3f9c1e7a5b2d4c6e';
const token = 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2';

describe('parseTopicUrl', () => {
  it.each([
    ['https://ntfy.sh/hijama-3f9c1e7a', { root: 'https://ntfy.sh/', topic: 'hijama-3f9c1e7a' }],
    [
      'https://push.example.com/ntfy/clinic_alerts',
      { root: 'https://push.example.com/ntfy/', topic: 'clinic_alerts' },
    ],
    ['http://127.0.0.1:8080/abc', { root: 'http://127.0.0.1:8080/', topic: 'abc' }],
  ])('reads %s as a server root and a topic', (url, expected) => {
    expect(parseTopicUrl(url)).toEqual(expected);
  });

  it.each([
    'https://ntfy.sh/',
    'https://ntfy.sh',
    'https://ntfy.sh/topic/',
    'https://ntfy.sh/topic?auth=x',
    'https://ntfy.sh/to.pic',
    'ntfy.sh/topic',
    'ftp://ntfy.sh/topic',
  ])('refuses %s', (url) => {
    expect(parseTopicUrl(url)).toBeUndefined();
  });
});

describe.each(testEngines('ntfy'))('ntfy push on $name', (engine) => {
  const harness = useNotifierHarness(engine, ['messages']);
  const { errors, infos, startNotifier, ntfyPeer, post, notificationRows: outboxRows } = harness;

  const pushTo = (peer: NtfyPeer, withToken: string | undefined = undefined) =>
    createNtfyChannel({ topicUrl: peer.topicUrl(topic), token: withToken }, testSiteUrl);

  const booking = (fields: Record<string, unknown> = {}) =>
    bookingWithId({ phone: '07700 900123', ...fields });

  const ukShort = /\w{3} \d{1,2} \w{3} \d{4} \d{2}:\d{2}/.source;

  it('pushes a booking with the Instagram chat first, then a call and Mark as answered, and keeps the e-mail address and handle out of the text', async () => {
    const peer = await ntfyPeer({ token });
    startNotifier([pushTo(peer, token)]);
    const sent = booking({ full_name: 'Zoë Łucja', instagram: '@zoe.l' });
    expect((await post(sent)).status).toBe(201);

    await waitFor(() => peer.messages.length === 1, 'the push');
    const push = peer.messages[0]!;
    expect(push).toMatchObject({
      topic,
      title: 'Booking request from Zoë Łucja',
      priority: 4,
      tags: ['calendar'],
      authorization: `Bearer ${token}`,
    });
    expect(push.message).toMatch(
      new RegExp(
        `^Ref ${shortReference(sent.id)}, received ${ukShort}\nPhone 07700 900123\nReply by ${ukShort}\nPrefers a reply by Instagram message\\.$`,
      ),
    );
    expect(push.message).not.toContain('amina@example.com');
    expect(push.message).not.toContain('zoe.l');
    expect(push.actions).toEqual([
      { action: 'view', label: 'Message on Instagram', url: 'https://ig.me/m/zoe.l', clear: false },
      { action: 'view', label: 'Call', url: 'tel:07700900123', clear: false },
      {
        action: 'view',
        label: 'Mark as answered',
        url: expect.stringMatching(
          new RegExp(`#answer=${sent.id}\\.\\d+\\.[0-9a-f]{64}$`),
        ) as unknown as string,
        clear: false,
      },
    ]);
    await waitFor(async () => (await outboxRows())[0]?.completed === true, 'completion');
    // The row's other columns are the notifier's, whatever the channel (notifier.test.ts).
    expect((await outboxRows())[0]).toMatchObject({
      attempts: 1,
      ntfy_sent: true,
      last_error: null,
    });
    expect(infos).toContainEqual(
      expect.stringMatching(
        /^Notified the practice of booking .* \(ntfy push to http:\/\/127\.0\.0\.1:\d+\)\.$/,
      ),
    );
  });

  it('offers a call first when no Instagram handle was given, and pushes within moments of the answer to the booking', async () => {
    const peer = await ntfyPeer();
    startNotifier([pushTo(peer)]);
    const latencies: number[] = [];
    for (let i = 0; i < 7; i++) {
      const answered = await post(booking({ full_name: `Guest ${i}`, phone: '01634 123456' }));
      expect(answered.status).toBe(201);
      await waitFor(() => peer.messages.length === i + 1, 'the push');
      latencies.push(peer.messages[i]!.receivedAt - answered.at);
    }
    expect(peer.messages[0]!.actions.map((action) => action.label)).toEqual([
      'Call',
      'Reply by e-mail',
      'Mark as answered',
    ]);
    expect(peer.messages[0]!.actions[0]!.url).toBe('tel:01634123456');
    expect(peer.messages[0]!.message).not.toContain('Instagram');
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(
      `ntfy on ${engine.name}: booking answered to push received, median ${sorted[Math.floor(sorted.length / 2)]} ms, max ${sorted.at(-1)} ms (${latencies.join(', ')}).`,
    );
    expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(1_000);
  });

  it('keeps a push refused for a wrong token failing, and says so', async () => {
    const peer = await ntfyPeer({ token });
    const notifier = startNotifier([pushTo(peer, 'tk_wrong')], { start: false });
    expect((await post(booking())).status).toBe(201);
    expect(await notifier.runOnce()).toEqual({ sent: 0, failed: 1 });
    expect(peer.messages).toEqual([]);
    expect((await outboxRows())[0]).toMatchObject({ ntfy_sent: false, completed: false });
    expect((await outboxRows())[0]!.last_error).toMatch(
      /the ntfy server answered 401 Unauthorized: unauthorized/,
    );
  });

  it('pushes the report of an e-mail that keeps failing, without anything the visitor typed', async () => {
    const peer = await ntfyPeer();
    const notifier = startNotifier([emailTo(await freePort()), pushTo(peer)], {
      start: false,
      retryMs: 1,
      alertAfterMs: 60 * 60_000,
    });
    const sent = booking();
    expect((await post(sent)).status).toBe(201);
    await notifier.runOnce();
    await harness.ageRequests(61);
    await notifier.runOnce();

    const alerts = peer.messages.filter((push) => push.tags.includes('warning'));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      title: 'A booking request has not reached you by e-mail',
      priority: 4,
      actions: [],
    });
    expect(alerts[0]!.message).toContain(`Ref ${shortReference(sent.id)}, received `);
    expect(alerts[0]!.message).not.toContain('Amina');
    expect(infos).toContainEqual(
      expect.stringMatching(/^Told the practice \(notification failing\) by ntfy push to /),
    );
  });

  it('pushes the flood alert and one short push for the digest of a flood', async () => {
    const peer = await ntfyPeer();
    const notifier = startNotifier([pushTo(peer)], { start: false });
    const flooded = Array.from({ length: 3 }, (_, i) => booking({ full_name: `Flood Guest ${i}` }));
    for (const row of flooded) expect((await post(row)).status).toBe(201);
    // As the database marks the requests above the site's hourly threshold, with its alert.
    await harness.db.query(
      `update app_private.messages set in_digest = true where kind = 'notification'`,
    );
    await harness.db.query(
      `insert into app_private.messages (kind, details) values ('flood', '{"threshold": 20}')`,
    );

    expect(await notifier.runOnce()).toEqual({ sent: 3, failed: 0 });
    expect(peer.messages.map((push) => push.title)).toEqual([
      'More than 20 booking requests in an hour: the booking form is being flooded',
      expect.stringMatching(/^3 more booking requests in the last (minute|\d+ minutes)$/),
    ]);
    const digest = peer.messages[1]!;
    expect(digest.message).toMatch(/npx hijama list --since \d{4}-\d\d-\d\d --limit all/);
    expect(digest.message).not.toContain('Flood Guest');
    expect(Buffer.byteLength(peer.messages[0]!.message)).toBeLessThan(4_096);
    expect((await outboxRows()).every((row) => row.completed && row.ntfy_sent)).toBe(true);
  });

  it('pushes the daily summary: each request by name and reference, answered or to reply to by when, nothing else the visitor typed', async () => {
    const peer = await ntfyPeer();
    const sent = booking();
    expect((await post(sent)).status).toBe(201);
    const answered = booking({ full_name: 'Answered Guest', email: 'answered@example.com' });
    expect((await post(answered)).status).toBe(201);
    await createBookingAnswers(harness.db).markById(answered.id, 'email');
    const report = await runDaily({
      db: harness.db,
      channels: [pushTo(peer)],
      schedule: { at: { hour: 0, minute: 0 }, summary: true },
      retention: undefined,
      retryMs: 1_000,
      siteUrl: testSiteUrl,
      log: { info: (message) => infos.push(message), error: (message) => errors.push(message) },
    });
    expect(report.outcome).toBe('sent');
    expect(peer.messages).toHaveLength(1);
    const push = peer.messages[0]!;
    expect(push).toMatchObject({
      title: 'Daily summary: 1 waiting, 2 new booking requests',
      priority: 3,
      tags: ['sunrise'],
    });
    expect(push.message).toMatch(
      new RegExp(
        `^1 waiting for a reply: see them with npx hijama list --waiting --limit all\\.\nAmina Khan, ref ${shortReference(sent.id)}: reply by ${ukShort}\nAnswered Guest, ref ${shortReference(answered.id)}: answered\n`,
      ),
    );
    expect(push.message).toContain('a day without it is the alarm');
    expect(push.message).not.toContain('amina@example.com');
  });
});
