import { solveChallenge } from 'altcha-lib/v1';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { parseAnswerFragment } from '../core/answer-link.ts';
import { shortReference } from '../core/booking-reference.ts';
import { encodeBookingProof } from '../core/booking-proof.ts';
import { createBookingChallengeIssuer } from '../../../../server/db/booking-challenge.ts';
import { setBookingLimits } from '../../../../server/db/booking-limits.ts';
import { testEngines } from '../../../../server/testing/helpers.ts';
import {
  emailChannelTo as emailTo,
  freePort,
  practiceInbox,
  startSilentServer,
  waitFor,
  type SmtpPeer,
} from '../../../../server/testing/notification-peers.ts';
import { useNotifierHarness } from '../../../../server/testing/notifier-harness.ts';
import { bookingWithId } from '../../../../server/testing/booking-samples.ts';
import { createWebhookChannel, postJson } from './channels.ts';
import { createOutbox } from './outbox.ts';
import { describeError, retryDelayMs } from './notifier.ts';
import { formatUkTimeLong } from '../uk-time.ts';

/** The notifier against a real SMTP server and a real webhook receiver, in this process. */

const engines = testEngines('notify');

describe('describeError', () => {
  it('leaves no e-mail address in what is logged and kept as last_error', () => {
    const refused = Object.assign(
      new Error(
        "Can't send mail - all recipients were rejected: 550 5.1.1 <practice@clinic.test>: Recipient address rejected",
      ),
      { code: 'EENVELOPE' },
    );
    expect(describeError(refused)).toBe(
      "Can't send mail - all recipients were rejected: 550 5.1.1 <an address>: Recipient address rejected (EENVELOPE)",
    );
    expect(describeError('bounced for amina.k+test@mail.example.co.uk, twice')).toBe(
      'bounced for an address, twice',
    );
    // An apostrophe belongs to the address: none of its local part is left.
    expect(
      describeError(
        "Can't send mail - all recipients were rejected: 550 5.1.1 <sean.o'neil@example.com>: User unknown",
      ),
    ).toBe("Can't send mail - all recipients were rejected: 550 5.1.1 <an address>: User unknown");
  });
});

describe('postJson', () => {
  it("names only the origin of an address it could not reach: a webhook's path may be its secret", async () => {
    const url = 'https://hooks.slack.com/services/T0AAA/B0BBB/SecretToken123';
    // As Supabase's runtime words a fetch that could not connect.
    vi.stubGlobal('fetch', async () => {
      throw new TypeError(
        `error sending request for url (${url}): client error (Connect): Connection refused`,
      );
    });
    onTestFinished(() => {
      vi.unstubAllGlobals();
    });
    await expect(postJson(url, {}, {})).rejects.toThrow(
      'error sending request for url (https://hooks.slack.com): client error (Connect): Connection refused',
    );
  });
});

describe('retryDelayMs', () => {
  it.each([
    [1, 30_000],
    [2, 60_000],
    [3, 120_000],
    [5, 480_000],
    [6, 600_000],
    [100, 600_000],
  ])('waits, after attempt %i, %i ms', (attempts, expected) => {
    expect(retryDelayMs(attempts, 30_000, 600_000)).toBe(expected);
  });
});

describe.each(engines)('the notifier on $name', (engine) => {
  const harness = useNotifierHarness(engine, ['messages']);
  const { errors, infos, startNotifier, smtpPeer } = harness;

  /**
   * Posts one booking, or each of an array in turn (a visitor sends one at a
   * time); with `proof`, each solves a proof of work first, as the form does
   * during a flood.
   */
  async function post(
    body: unknown,
    { proof = false }: { proof?: boolean } = {},
  ): Promise<{ status: number; ms: number }> {
    if (Array.isArray(body)) {
      const answers = [];
      for (const row of body) answers.push(await post(row, { proof }));
      const refused = answers.find((answer) => answer.status !== 201);
      return refused ?? { status: 201, ms: 0 };
    }
    return harness.post(body, proof ? { 'X-Booking-Proof': await solveProof() } : {});
  }

  /** A challenge of the database solved with ALTCHA's solver, as the browser solves it: the X-Booking-Proof header. */
  async function solveProof(): Promise<string> {
    const challenge = await createBookingChallengeIssuer(harness.db)('127.0.0.1');
    const solution = await solveChallenge(
      challenge.challenge,
      challenge.salt,
      challenge.algorithm,
      challenge.maxnumber,
    ).promise;
    return encodeBookingProof(challenge, solution!.number);
  }

  const outboxRows = harness.notificationRows;

  /** Every request's notification is complete, with no error left on it. */
  async function expectAllDelivered() {
    expect((await outboxRows()).every((row) => row.completed && row.last_error === null)).toBe(
      true,
    );
  }
  const booking = bookingWithId;

  it('e-mails a name written as an encoded word as typed, not decoded into other words', async () => {
    const peer = await smtpPeer();
    startNotifier([emailTo(peer.port)]);
    const encodedWord = '=?utf-8?B?VVJHRU5UOiBjYWxsIDA5MDk4Nzk4Nzk4?=';
    expect((await post(booking({ full_name: encodedWord }))).status).toBe(201);
    await waitFor(() => peer.mails.length === 1, 'the e-mail');
    // The invisible word joiner that keeps the subject from being read as an encoded word.
    const shown = (text = '') => text.replaceAll('\u2060', '');
    expect(shown(peer.mails[0]!.parsed.subject)).toBe(`Booking request from ${encodedWord}`);
    expect(shown(peer.mails[0]!.parsed.replyTo?.[0]?.name)).toBe(encodedWord);
  });

  it('e-mails the practice every field of a booking, the name as text, the time in UK time', async () => {
    const peer = await smtpPeer({ auth: { user: 'clinic', pass: 's3cret' } });
    startNotifier([emailTo(peer.port, 'clinic:s3cret@')]);
    const sent = booking({
      full_name: '<b>Bob</b> & "Co"',
      phone: '+44 1634 123456',
      email: 'bob@example.com',
      instagram: '@bob.k',
    });
    expect((await post(sent)).status).toBe(201);

    await waitFor(() => peer.mails.length === 1, 'the e-mail');
    const mail = peer.mails[0]!;
    expect(mail.user).toBe('clinic');
    expect(mail.from).toBe('bookings@rochester-hijama.example');
    expect(mail.to).toEqual([practiceInbox]);
    expect(mail.parsed.subject).toBe('Booking request from <b>Bob</b> & "Co"');
    expect(mail.parsed.replyTo).toEqual([
      { name: '<b>Bob</b> & "Co"', address: 'bob@example.com' },
    ]);
    expect(mail.parsed.messageId).toBe(`<booking-${sent.id}@rochester-hijama.example>`);

    const { rows } = await harness.db.query<{ created_at: Date }>(
      'select created_at from public.bookings where id = $1',
      [sent.id],
    );
    const received = formatUkTimeLong(new Date(rows[0]!.created_at));

    // What the e-mail says of each field is booking-notice.test.ts's; here, that the
    // request stored through the API reaches it as typed, received at its stored time.
    const text = mail.parsed.text ?? '';
    expect(text).toContain('Name:       <b>Bob</b> & "Co"\n');
    expect(text).toContain('Instagram:  @bob.k (https://instagram.com/bob.k)\n');
    expect(text).toContain(`Received:   ${received}\n`);

    await waitFor(async () => (await outboxRows())[0]?.completed === true, 'completion');
    expect(await outboxRows()).toEqual([
      {
        booking_id: sent.id,
        attempts: 1,
        email_sent: true,
        webhook_sent: false,
        ntfy_sent: false,
        completed: true,
        last_error: null,
      },
    ]);
    expect(errors).toEqual([]);
  });

  it('keeps answering bookings at once while the SMTP server is down, then delivers each exactly once', async () => {
    const port = await freePort();
    const notifier = startNotifier([emailTo(port)]);
    const sent = [booking({ full_name: 'First Guest' }), booking({ full_name: 'Second Guest' })];
    for (const row of sent) {
      const answer = await post(row);
      expect(answer.status).toBe(201);
      expect(answer.ms).toBeLessThan(2_000);
    }

    await waitFor(
      async () => (await outboxRows()).every((row) => row.attempts >= 2),
      'two failed attempts each',
    );
    const failing = await outboxRows();
    expect(failing.every((row) => !row.completed && !row.email_sent)).toBe(true);
    expect(failing[0]!.last_error).toMatch(/ECONNREFUSED/);
    expect(errors[0]).toMatch(/failed \(attempt 1\).*Next attempt in 200 ms/);

    const peer = await smtpPeer({ port });
    await waitFor(() => peer.mails.length === 2, 'both e-mails');
    // Several more polls: nothing is sent again.
    await notifier.runs(3);
    expect(peer.mails.map((mail) => mail.parsed.subject).sort()).toEqual([
      'Booking request from First Guest',
      'Booking request from Second Guest',
    ]);
    await expectAllDelivered();
  });

  it('never holds up the booking API while the SMTP server hangs', async () => {
    const silent = await startSilentServer();
    harness.afterTest(silent.close);
    startNotifier([emailTo(silent.port)]);
    expect((await post(booking())).status).toBe(201);
    // The notifier is now waiting for a greeting that never comes.
    await silent.connected;
    for (let i = 0; i < 3; i++) {
      const answer = await post(booking({ full_name: `Guest ${i}` }));
      expect(answer.status).toBe(201);
      expect(answer.ms).toBeLessThan(1_000);
    }
    await silent.close();
  });

  it("sends the webhook address's user and password as Basic authorisation", async () => {
    const hook = await harness.webhookReceiver();
    const url = new URL(hook.url);
    url.username = 'practice';
    url.password = encodeURIComponent('pa:ss wörd');
    const notifier = startNotifier([createWebhookChannel(url.href)]);
    expect((await post(booking())).status).toBe(201);

    await waitFor(() => hook.requests.length === 1, 'the webhook');
    await notifier.runs(1);
    expect(hook.requests[0]!.url).toBe('/hooks/booking?token=secret');
    expect(hook.requests[0]!.headers.authorization).toBe(
      `Basic ${Buffer.from('practice:pa:ss wörd').toString('base64')}`,
    );
  });

  it('posts the booking as JSON to the webhook, retrying it without sending the e-mail again', async () => {
    const peer = await smtpPeer();
    const hook = await harness.webhookReceiver([500, 503]);
    const notifier = startNotifier([emailTo(peer.port), createWebhookChannel(hook.url)]);
    const sent = booking({
      full_name: "Zoë O'Neil",
      instagram: 'https://www.instagram.com/zoe_o/',
    });
    expect((await post(sent)).status).toBe(201);

    await waitFor(() => hook.requests.length === 3, 'three webhook attempts');
    await waitFor(async () => (await outboxRows())[0]?.completed === true, 'completion');
    await notifier.runs(2);
    expect(hook.requests).toHaveLength(3);
    expect(peer.mails).toHaveLength(1);

    for (const request of hook.requests) {
      expect(request.method).toBe('POST');
      expect(request.url).toBe('/hooks/booking?token=secret');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['idempotency-key']).toBe(sent.id);
      expect(request.headers['user-agent']).toBe('hijama-notifier');
      expect(request.body).toBe(hook.requests[0]!.body);
    }
    // What the body says of each field is booking-notice.test.ts's (composeWebhookBody);
    // here, that it carries the request as stored.
    expect(JSON.parse(hook.requests[0]!.body)).toMatchObject({
      type: 'booking.created',
      booking: {
        id: sent.id,
        full_name: "Zoë O'Neil",
        phone: '01634 123456',
        email: 'amina@example.com',
        // Stored as the user name (20261201000000_bookings.sql).
        instagram: 'zoe_o',
      },
    });
    expect(await outboxRows()).toEqual([
      expect.objectContaining({ attempts: 3, email_sent: true, webhook_sent: true }),
    ]);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toContain('the webhook answered 500');
  });

  it('finds bookings stored without the server (as on hosted Supabase) by polling', async () => {
    const peer = await smtpPeer();
    startNotifier([emailTo(peer.port)]);
    await harness.db.transaction(async (tx) => {
      await tx.query('set local role anon');
      // The client's address, as Supabase's gateway passes it to PostgREST.
      await tx.query(
        `select set_config('request.headers', '{"cf-connecting-ip":"192.0.2.80"}', true)`,
      );
      await tx.query(
        `insert into public.bookings (full_name, phone, email) values ('Direct Guest', '01634 123456', 'direct@example.com')`,
      );
    });
    await waitFor(() => peer.mails.length === 1, 'the e-mail');
    expect(peer.mails[0]!.parsed.subject).toBe('Booking request from Direct Guest');
  });

  describe('during a flood', () => {
    const threshold = 3;

    beforeEach(async () => {
      await setBookingLimits(harness.db, { sitePerHour: threshold });
      // The easiest proof of work the database allows, so that the tests solve theirs quickly.
      await harness.db.query('update app_private.booking_limits set proof_max_number = 1000');
    });

    afterEach(async () => {
      await setBookingLimits(harness.db, { sitePerHour: 0 });
    });

    /** The requests of a flood: `count` guests, each sent with a proof of work. */
    async function flood(count: number, first = 1) {
      const guests = Array.from({ length: count }, (_, i) =>
        booking({
          full_name: `Flood Guest ${String(first + i).padStart(2, '0')}`,
          email: `guest${first + i}@example.com`,
        }),
      );
      expect((await post(guests, { proof: true })).status).toBe(201);
      return guests;
    }

    /** Makes every flood digest older by `minutes`, as if it had been sent that long ago. */
    async function ageDigests(minutes: number) {
      await harness.db.query(
        `update app_private.messages set created_at = created_at - make_interval(mins => $1)
          where kind = 'flood_digest'`,
        [minutes],
      );
    }

    /** As many usual requests as the threshold lets through, each of its own name and address. */
    const usualRequests = () =>
      Array.from({ length: threshold }, (_, i) =>
        booking({ full_name: `Usual Guest ${i + 1}`, email: `u${i}@example.com` }),
      );

    const subjects = (peer: SmtpPeer) => peer.mails.map((mail) => mail.parsed.subject ?? '');

    it('e-mails the requests above the threshold in one digest, with the flood alert, and the others one by one', async () => {
      const peer = await smtpPeer();
      const hook = await harness.webhookReceiver();
      const notifier = startNotifier([emailTo(peer.port), createWebhookChannel(hook.url)], {
        start: false,
      });
      expect((await post(usualRequests())).status).toBe(201);
      // Above the threshold a request without a proof of work is refused.
      expect((await post(booking({ email: 'noproof@example.com' }))).status).toBe(428);
      // A few above the threshold make a flood as well as forty would.
      const flooded = await flood(4);

      expect(await notifier.runOnce()).toEqual({ sent: 7, failed: 0 });
      const all = subjects(peer);
      expect(all.filter((subject) => subject.startsWith('Booking request from')).sort()).toEqual([
        'Booking request from Usual Guest 1',
        'Booking request from Usual Guest 2',
        'Booking request from Usual Guest 3',
      ]);
      expect(all.filter((subject) => subject.includes('flooded'))).toEqual([
        'More than 3 booking requests in an hour: the booking form is being flooded',
      ]);
      const digests = peer.mails.filter((mail) => mail.parsed.subject?.includes('more booking'));
      expect(digests.map((mail) => mail.parsed.subject)).toEqual([
        expect.stringMatching(/^4 more booking requests in the last (minute|\d+ minutes)$/),
      ]);
      expect(peer.mails).toHaveLength(5);

      // How the digest lists its requests is flood-digest.test.ts's; here, that it
      // carries the flood's requests and no other, each with its own answer token.
      const digest = digests[0]!;
      const text = digest.parsed.text ?? '';
      expect(text).not.toContain('Usual Guest');
      expect(digest.parsed.messageId).toMatch(
        /^<flood-digest-\d+-[0-9a-z]+@rochester-hijama\.example>$/,
      );
      const marked = [...text.matchAll(/Mark as answered: \S+#(answer=\S+)/g)].map(
        (match) => parseAnswerFragment(match[1]!)?.bookingId,
      );
      expect(marked).toEqual(flooded.map((guest) => guest.id));

      const hooked = hook.requests.map(
        (request) => JSON.parse(request.body) as { type: string; digest?: { bookings: unknown[] } },
      );
      expect(hooked.map((body) => body.type).sort()).toEqual([
        'booking.created',
        'booking.created',
        'booking.created',
        'practice.alert',
        'practice.flood_digest',
      ]);
      const webhookDigest = hooked.find((body) => body.type === 'practice.flood_digest')!;
      expect(webhookDigest.digest!.bookings).toHaveLength(4);
      expect(hook.requests.at(-1)!.headers['idempotency-key']).toMatch(
        /^flood-digest-\d+-[0-9a-z]+$/,
      );

      // Every request's notification is complete, the flood's by the digest.
      expect((await outboxRows()).filter((row) => !row.completed)).toEqual([]);
      expect(await notifier.runOnce()).toEqual({ sent: 0, failed: 0 });
      expect(peer.mails).toHaveLength(5);
    });

    it('sends the next digest no sooner than 15 minutes after the last', async () => {
      const peer = await smtpPeer();
      const notifier = startNotifier([emailTo(peer.port)], { start: false });
      await post(usualRequests());
      await flood(2);
      await notifier.runOnce();
      const digestCount = () =>
        subjects(peer).filter((subject) => subject.includes('more booking')).length;
      expect(digestCount()).toBe(1);

      const later = await flood(5, 3);
      expect(await notifier.runOnce()).toEqual({ sent: 0, failed: 0 });
      await ageDigests(14);
      await notifier.runOnce();
      expect(digestCount()).toBe(1);

      await ageDigests(1);
      expect(await notifier.runOnce()).toEqual({ sent: 5, failed: 0 });
      expect(digestCount()).toBe(2);
      const second = peer.mails.at(-1)!;
      expect(second.parsed.subject).toMatch(
        /^5 more booking requests in the last (minute|\d+ minutes)$/,
      );
      for (const guest of later) expect(second.parsed.text).toContain(shortReference(guest.id));
      expect(second.parsed.text).not.toContain('Flood Guest 01');
    });

    it('holds back no later request behind a digest one channel keeps refusing, and shows the channel that took it', async () => {
      const peer = await smtpPeer();
      const brokenHook = createWebhookChannel(`http://127.0.0.1:${await freePort()}/hook`);
      // The first digest's retry is not due again within the test, as after a few failures.
      const notifier = startNotifier([emailTo(peer.port), brokenHook], {
        start: false,
        retryMs: 3_600_000,
      });
      await post(usualRequests());
      const first = await flood(2);
      await notifier.runOnce();
      const digestSubjects = () => subjects(peer).filter((subject) => subject.includes('more'));
      expect(digestSubjects()).toEqual([expect.stringMatching(/^2 more booking requests/)]);
      // E-mailed, not posted: each of its requests shows e-mail as taken.
      const rows = await outboxRows();
      for (const guest of first) {
        expect(rows.find((row) => row.booking_id === guest.id)).toMatchObject({
          email_sent: true,
          webhook_sent: false,
          completed: false,
        });
      }

      const later = await flood(3, 3);
      await ageDigests(15);
      await notifier.runOnce();
      expect(digestSubjects()).toEqual([
        expect.stringMatching(/^2 more booking requests/),
        expect.stringMatching(/^3 more booking requests/),
      ]);
      for (const guest of later)
        expect(peer.mails.at(-1)!.parsed.text).toContain(shortReference(guest.id));
    });

    it('keeps a digest that no channel takes, shows its requests as failing, and sends it once the channel works again', async () => {
      const port = await freePort();
      // No retry delay: what failed is due again at once, yet each request is tried
      // once a run (seven: the three usual ones and the digest's four).
      const notifier = startNotifier([emailTo(port)], { start: false, retryMs: 0 });
      await post(usualRequests());
      await flood(4);
      expect(await notifier.runOnce()).toEqual({ sent: 0, failed: 7 });
      expect(errors).toContainEqual(
        expect.stringMatching(
          /^The flood digest \d+ \(4 requests\) failed \(attempt 1\): .*ECONNREFUSED/,
        ),
      );
      // Each request, the flood's by their digest, shows its one failed attempt.
      const rows = await outboxRows();
      expect(rows).toHaveLength(7);
      for (const row of rows) {
        expect(row).toMatchObject({ completed: false, attempts: 1 });
        expect(row.last_error).toMatch(/ECONNREFUSED/);
      }

      const peer = await smtpPeer({ port });
      await notifier.runOnce();
      expect(subjects(peer).filter((subject) => subject.includes('more booking'))).toEqual([
        expect.stringMatching(/^4 more booking requests/),
      ]);
      await expectAllDelivered();
    });
  });

  it('sends what is due when run once, for a scheduler, claiming no message of any kind once the time given to it is over', async () => {
    const peer = await smtpPeer();
    const notifier = startNotifier([emailTo(peer.port)], { start: false });
    const outbox = createOutbox(harness.db);
    expect((await post([booking(), booking({ full_name: 'Other Guest' })])).status).toBe(201);
    // An alert waits too: no kind of message is claimed once the time is over.
    await harness.db.query(
      `insert into app_private.messages (kind, details) values ('flood', '{"threshold": 60}')`,
    );
    expect(await outbox.countPending()).toBe(2);
    expect(await notifier.runOnce({ claimForMs: 0 })).toEqual({ sent: 0, failed: 0 });
    expect(await outbox.countPending()).toBe(2);
    expect(peer.mails).toHaveLength(0);
    expect(await notifier.runOnce({ claimForMs: 60_000 })).toEqual({ sent: 2, failed: 0 });
    expect(await outbox.countPending()).toBe(0);
    expect(peer.mails).toHaveLength(3);
    expect(await notifier.runOnce()).toEqual({ sent: 0, failed: 0 });
  });

  it('sends what failed at once with a corrected login, without waiting out its backoff', async () => {
    const peer = await smtpPeer({ auth: { user: 'clinic', pass: 's3cret' } });
    const refused = startNotifier([emailTo(peer.port, 'clinic:wrong@')], {
      start: false,
      retryMs: 3_600_000,
    });
    expect((await post(booking())).status).toBe(201);
    expect(await refused.runOnce()).toEqual({ sent: 0, failed: 1 });

    const corrected = startNotifier([emailTo(peer.port, 'clinic:s3cret@')], { start: false });
    expect(await corrected.runOnce()).toEqual({ sent: 0, failed: 0 });
    expect(await createOutbox(harness.db).retryFailingNow()).toBe(1);
    expect(await corrected.runOnce()).toEqual({ sent: 1, failed: 0 });
    expect(peer.mails).toHaveLength(1);
  });

  async function failingAlerts() {
    const { rows } = await harness.db.query<{ sent: boolean; details: unknown }>(
      `select done_at is not null as sent, details from app_private.messages
        where kind = 'notification_failing' order by id`,
    );
    return rows;
  }

  it('reports a notification still failing after an hour through the webhook, once, when the e-mail login is refused', async () => {
    const peer = await smtpPeer({ auth: { user: 'clinic', pass: 's3cret' } });
    const hook = await harness.webhookReceiver();
    const notifier = startNotifier(
      [emailTo(peer.port, 'clinic:wrong@'), createWebhookChannel(hook.url)],
      { start: false, retryMs: 1, alertAfterMs: 60 * 60_000 },
    );
    const sent = booking();
    expect((await post(sent)).status).toBe(201);
    expect(await notifier.runOnce()).toEqual({ sent: 0, failed: 1 });
    // Younger than an hour: nothing to report yet.
    expect(await failingAlerts()).toEqual([]);

    await harness.ageRequests(61);
    await notifier.runOnce();
    const alerts = hook.requests
      .map(
        (request) => JSON.parse(request.body) as { type: string; alert?: Record<string, unknown> },
      )
      .filter((body) => body.type === 'practice.alert');
    expect(alerts).toHaveLength(1);
    const alert = alerts[0]!.alert!;
    expect(alert.kind).toBe('notification_failing');
    expect(alert.subject).toBe('A booking request has not reached you by e-mail');
    // Its wording is composeAlert's (practice-alerts.test.ts); here, the request and the server's refusal.
    expect(alert.text).toMatch(
      new RegExp(
        `Ref ${shortReference(sent.id)}, received .*, 2 attempts\n    e-mail to practice@example\\.com: Invalid login: 535 Invalid username or password`,
      ),
    );
    expect(alert.text).not.toContain('Amina');
    expect(hook.requests.at(-1)!.headers['idempotency-key']).toMatch(/^alert-\d+-[0-9a-z]+$/);
    expect(infos).toContainEqual(
      expect.stringMatching(
        /^Told the practice \(notification failing\) by webhook to http:\/\/127\.0\.0\.1:\d+\.$/,
      ),
    );

    // Reported once, however long it keeps failing.
    await notifier.runOnce();
    await notifier.runOnce();
    const count = hook.requests.filter((request) => request.body.includes('practice.alert')).length;
    expect(count).toBe(1);
    expect(await failingAlerts()).toEqual([{ sent: true, details: expect.any(Object) }]);
    expect(peer.mails).toHaveLength(0);
  });
});
