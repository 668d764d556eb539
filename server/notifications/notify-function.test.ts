import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import {
  createBookingsRepository,
  type BookingInsert,
} from '../../supabase/functions/_shared/db/bookings-repository.ts';
import type { Database } from '../../supabase/functions/_shared/db/database.ts';
import { noBookingLimits, testDatabaseUrl } from '../testing/helpers.ts';
import { useScratchPostgres } from '../testing/test-database.ts';
import { shortReference } from '../../supabase/functions/_shared/core/booking-reference.ts';
import {
  makeCertificate,
  startNtfyPeer,
  startSmtpPeer,
  waitFor,
  type SmtpPeer,
} from '../testing/notification-peers.ts';
import { denoBinary, installDeno } from '../testing/deno.ts';
import { startEdgeFunction } from '../testing/supabase-stack.ts';
import { bookingWithId } from '../testing/booking-samples.ts';
import { storeWaitingRequest } from '../testing/answer-fixtures.ts';
import { useTempDir } from '../testing/temp-dir.ts';
import { ukDayOf } from '../../supabase/functions/_shared/uk-time.ts';
import * as visitorEmails from '../../supabase/functions/_shared/content/visitor-emails.ts';

/**
 * The notify-bookings Edge Function run by real Deno (the `deno` package's
 * binary, from tools/deno/), against a real PostgreSQL database
 * (TEST_DATABASE_URL) and real SMTP servers: the code that hosted Supabase
 * runs. It runs from a copy of supabase/ alone, in an empty folder, as
 * `supabase functions deploy` takes it: an import reaching outside that folder
 * fails here.
 */

const execFileAsync = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const copied = mkdtempSync(path.join(tmpdir(), 'hijama-supabase-'));
cpSync(path.join(root, 'supabase'), path.join(copied, 'supabase'), {
  recursive: true,
  // What a run of the function left in the checkout is not part of the folder.
  filter: (source) => path.basename(source) !== 'node_modules',
});
const functionDir = path.join(copied, 'supabase', 'functions', 'notify-bookings');
const entry = path.join(functionDir, 'index.ts');
const secret = 'test-function-secret-0123456789abcdef';
const practice = 'practice@example.com';

describe('the notify-bookings function under Deno, from a copy of supabase/ alone', () => {
  beforeAll(async () => {
    const deno = await installDeno();
    // Fetches the function's npm packages once, so that no test waits for the registry.
    await execFileAsync(deno, ['install', '--entrypoint', entry], { cwd: functionDir });
  }, 180_000);

  afterAll(() => rmSync(copied, { recursive: true, force: true }));

  it('type-checks with deno check, the shared modules included', async () => {
    await expect(
      execFileAsync(denoBinary, ['check', entry], { cwd: functionDir }),
    ).resolves.toBeDefined();
  }, 120_000);

  describe.runIf(testDatabaseUrl)('on PostgreSQL', () => {
    const scratch = useScratchPostgres(noBookingLimits);
    const certificateDir = useTempDir('smtps', { once: true });
    let db: Database;

    beforeEach(async () => {
      db = scratch.db;
      await db.query('delete from public.bookings');
      await db.query('delete from app_private.messages');
    });

    /** The function on a free port of this machine, with these settings and the test's secret. */
    async function startFunction(env: Record<string, string>): Promise<string> {
      const { url, stop } = await startEdgeFunction({
        entry,
        env: {
          SUPABASE_DB_URL: scratch.url,
          NOTIFY_FUNCTION_SECRET: secret,
          NOTIFY_TO: practice,
          NOTIFY_FROM: 'Rochester Hijama <bookings@rochester-hijama.example>',
          SITE_URL: 'https://clinic.test/',
          NOTIFY_RETRY_SECONDS: '1',
          NOTIFY_RETRY_MAX_SECONDS: '1',
          // The tests count the practice's messages; the visitor's acknowledgement has tests of its own.
          NOTIFY_ACKNOWLEDGE: 'off',
          ...env,
        },
      });
      onTestFinished(stop);
      return url;
    }

    async function smtpPeer(options: Parameters<typeof startSmtpPeer>[0] = {}): Promise<SmtpPeer> {
      const peer = await startSmtpPeer(options);
      onTestFinished(peer.close);
      return peer;
    }

    /** The function e-mailing through an SMTP peer of its own, with `env` on top. */
    async function functionWithSmtp(env: Record<string, string> = {}) {
      const peer = await smtpPeer();
      const url = await startFunction({ SMTP_URL: `smtp://127.0.0.1:${peer.port}`, ...env });
      return { peer, url };
    }

    async function call(url: string, init: RequestInit = {}) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
        body: '{}',
        ...init,
      });
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        headers: response.headers,
        body: (await response.json()) as Record<string, unknown>,
      };
    }

    /** Stores bookings as visitors do on hosted Supabase: as anon, straight into the table, one a request. */
    async function insertAsVisitor(rows: BookingInsert[]) {
      const repository = createBookingsRepository(db);
      for (const row of rows) await repository.insertAsAnon([row], {});
    }

    async function outboxRows() {
      const { rows } = await db.query<{
        attempts: number;
        completed: boolean;
        last_error: string | null;
        due: boolean;
      }>(
        `select attempts, done_at is not null as completed, last_error,
                next_attempt_at <= now() as due
         from app_private.messages where kind = 'notification' order by created_at, booking_id`,
      );
      return rows;
    }

    /**
     * Requests of a flood, as the database marks those above the site's hourly
     * threshold: stored, then sent to the digest, with the flood alert.
     */
    async function insertFlood(rows: BookingInsert[]) {
      await insertAsVisitor(rows);
      await db.query(
        `update app_private.messages set in_digest = true
          where kind = 'notification' and booking_id = any($1::uuid[])`,
        [rows.map((row) => row.id)],
      );
      await db.query(
        `insert into app_private.messages (kind, details)
         select 'flood', '{"threshold": 3}'
          where not exists (select 1 from app_private.messages where kind = 'flood')`,
      );
    }

    it('sends each notification, and the digest of a flood, exactly once when called twice at the same time', async () => {
      const peer = await smtpPeer();
      const smtp = { SMTP_URL: `smtp://127.0.0.1:${peer.port}` };
      // Two instances, as two isolates of the function would be.
      const [first, second] = await Promise.all([startFunction(smtp), startFunction(smtp)]);
      const many = Array.from({ length: 12 }, (_, i) => bookingWithId({ full_name: `Guest ${i}` }));
      await insertAsVisitor(many);
      await insertFlood(
        Array.from({ length: 4 }, (_, i) => bookingWithId({ full_name: `Flood Guest ${i + 1}` })),
      );

      const answers = await Promise.all([call(first), call(second)]);
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.type).toBe('application/json');
        expect(answer.body).toEqual({
          sent: expect.any(Number),
          failed: 0,
          pending: expect.any(Number),
        });
      }
      expect(answers.reduce((sum, answer) => sum + (answer.body.sent as number), 0)).toBe(16);

      // The twelve notifications, the flood alert and one digest of the four (what
      // they say is their composers' tests', how the digest is made notifier.test.ts's).
      const ids = peer.mails.map((mail) => mail.parsed.messageId);
      expect(ids).toHaveLength(14);
      expect(new Set(ids.filter((id) => id?.startsWith('<booking-')))).toEqual(
        new Set(many.map((row) => `<booking-${row.id}@rochester-hijama.example>`)),
      );
      const digests = peer.mails.filter((mail) => mail.parsed.subject?.includes('more booking'));
      expect(digests.map((mail) => mail.parsed.subject)).toEqual([
        expect.stringMatching(/^4 more booking requests in the last /),
      ]);
      expect((await outboxRows()).every((row) => row.completed && row.attempts === 1)).toBe(true);
      expect(await call(first)).toMatchObject({ body: { sent: 0, failed: 0, pending: 0 } });
      expect(peer.mails).toHaveLength(14);

      // More of the flood wait for the next digest, 15 minutes after the last
      // (notifier.test.ts sends it then).
      await insertFlood([bookingWithId({ full_name: 'Late Guest' })]);
      expect((await call(second)).body).toEqual({ sent: 0, failed: 0, pending: 1 });
    });

    const token = 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2';

    /** An SMTP peer and an ntfy peer, and the function's settings for both. */
    async function emailAndPush() {
      const mail = await smtpPeer();
      const push = await startNtfyPeer({ token });
      onTestFinished(push.close);
      const env = {
        SMTP_URL: `smtp://127.0.0.1:${mail.port}`,
        NOTIFY_NTFY_URL: push.topicUrl('hijama-practice'),
        NOTIFY_NTFY_TOKEN: token,
      };
      return { mail, push, env };
    }

    // That ntfy alone, without e-mail, is a channel is loadNotifyConfig's (notify-config.test.ts);
    // that each message goes once, however many notifiers run, the queue's (notifier.test.ts,
    // reminders.test.ts, reminder-and-acknowledgement-claims.test.ts).
    it('e-mails the practice, pushes with the token of its secrets, and acknowledges to the visitor', async () => {
      const { mail, push, env } = await emailAndPush();
      const url = await startFunction({ ...env, NOTIFY_ACKNOWLEDGE: 'on' });
      const sent = bookingWithId({ full_name: 'Zoë Łucja', email: 'Zoe.Lucja@example.com' });
      await insertAsVisitor([sent]);

      expect((await call(url)).body).toEqual({ sent: 1, failed: 0, pending: 0 });
      const title = 'Booking request from Zoë Łucja';
      expect(push.messages).toEqual([
        expect.objectContaining({
          topic: 'hijama-practice',
          title,
          authorization: `Bearer ${token}`,
        }),
      ]);
      expect(mail.mails).toHaveLength(2);
      const notice = mail.mails.find((received) => received.parsed.subject === title)!;
      expect(notice.to).toEqual([practice]);
      const acknowledgement = mail.mails.find((received) => received !== notice)!;
      expect(acknowledgement.to).toEqual(['Zoe.Lucja@example.com']);
      expect(acknowledgement.parsed.subject).toBe(
        visitorEmails.acknowledgement.subject(shortReference(sent.id)),
      );
    });

    it('reminds the practice, by e-mail and push, of a request close to its reply-by time', async () => {
      const { mail, push, env } = await emailAndPush();
      const url = await startFunction(env);
      // Stored 21 hours ago (as the owner: created_at cannot come through the
      // API): NOTIFY_REMINDER_HOURS's default of 4 made it due at 20 hours.
      const id = await storeWaitingRequest(db, {
        created_at: new Date(Date.now() - 21 * 3_600_000).toISOString(),
      });

      // Its notification, then its reminder.
      expect((await call(url)).body).toEqual({ sent: 1, failed: 0, pending: 0 });
      expect(mail.mails).toHaveLength(2);
      expect(push.messages).toHaveLength(2);
      // What a reminder says is reminder-message.test.ts's; here, that both are of this request.
      const reminder = mail.mails.find((received) =>
        received.parsed.subject?.startsWith('A request waits for a reply; it is due '),
      )!;
      expect(reminder.to).toEqual([practice]);
      expect(reminder.parsed.text).toContain(`ref ${shortReference(id)}`);
      const reminderPush = push.messages.find(
        (message) => message.title === reminder.parsed.subject,
      );
      expect(reminderPush?.message).toContain(`ref ${shortReference(id)}`);
    });

    it('answers 401 without the secret, 405 to another method and 400 to an unknown task or a body that is not JSON, sending nothing', async () => {
      const { peer, url } = await functionWithSmtp();
      await insertAsVisitor([bookingWithId()]);

      const wrong = [`Bearer ${secret}x`, secret, 'Bearer '].map((Authorization) => ({
        Authorization,
      }));
      for (const headers of [{}, ...wrong]) {
        const answer = await call(url, { headers });
        expect(answer.status).toBe(401);
        expect(answer.type).toBe('application/json');
        expect(answer.body).toEqual({ error: expect.stringMatching(/notify_bookings_secret/) });
      }
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const answer = await call(url, { method, body: method === 'GET' ? null : '{}' });
        expect(answer.status).toBe(405);
        expect(answer.type).toBe('application/json');
        expect(answer.headers.get('allow')).toBe('POST');
      }
      for (const body of ['{"task":"purge"}', 'heartbeat']) {
        const answer = await call(url, { body });
        expect(answer.status).toBe(400);
        expect(answer.type).toBe('application/json');
        expect(answer.body.error).toMatch(/\{"task": "heartbeat"\}/);
      }
      expect(peer.mails).toHaveLength(0);
      expect(await outboxRows()).toEqual([expect.objectContaining({ attempts: 0 })]);
      // An empty body is the notifications' call, as before.
      expect((await call(url, { body: '' })).body).toEqual({ sent: 1, failed: 0, pending: 0 });
    });

    it('sends through SMTP over implicit TLS (smtps://, as on port 465), verifying the certificate', async () => {
      const { key, cert, caFile } = await makeCertificate(certificateDir());
      const peer = await smtpPeer({
        auth: { user: 'clinic', pass: 's3cret' },
        tls: { key, cert },
      });
      const smtpUrl = `smtps://clinic:s3cret@127.0.0.1:${peer.port}`;
      await insertAsVisitor([bookingWithId()]);

      // Without trusting the certificate, nothing is sent.
      const untrusting = await startFunction({ SMTP_URL: smtpUrl });
      expect((await call(untrusting)).body).toEqual({ sent: 0, failed: 1, pending: 1 });
      expect((await outboxRows())[0]!.last_error).toMatch(/certificate|UnknownIssuer/i);
      expect(peer.mails).toHaveLength(0);

      await waitFor(async () => (await outboxRows())[0]?.due === true, 'the retry to be due');
      const trusting = await startFunction({ SMTP_URL: smtpUrl, DENO_CERT: caFile });
      expect((await call(trusting)).body).toEqual({ sent: 1, failed: 0, pending: 0 });
      expect(peer.mails).toHaveLength(1);
      expect(peer.mails[0]!.user).toBe('clinic');
      expect(peer.mails[0]!.to).toEqual([practice]);
    });

    it('e-mails a booking within moments of its insert when called right after it', async () => {
      const { peer, url } = await functionWithSmtp();
      const latencies: number[] = [];
      for (let i = 0; i < 6; i++) {
        const started = Date.now();
        await insertAsVisitor([bookingWithId({ full_name: `Guest ${i}` })]);
        expect((await call(url)).body).toEqual({ sent: 1, failed: 0, pending: 0 });
        await waitFor(() => peer.mails.length === i + 1, 'the e-mail');
        latencies.push(peer.mails[i]!.receivedAt - started);
      }
      const warm = latencies.slice(1).sort((a, b) => a - b);
      console.log(
        `Insert to e-mail through the function: first call ${latencies[0]} ms, ` +
          `then median ${warm[Math.floor(warm.length / 2)]} ms, max ${warm.at(-1)} ms.`,
      );
      expect(Math.max(...warm)).toBeLessThan(2_000);
    });

    it('does the daily run when asked with {"task":"heartbeat"}: the summary once a day, and the purge', async () => {
      // Due all day, so that the test does not depend on the hour it runs at. One run a day
      // however many call it is daily-run.test.ts's.
      const { peer, url } = await functionWithSmtp({ NOTIFY_DAILY_SUMMARY_AT: '00:00' });
      await insertAsVisitor([bookingWithId({ full_name: 'Amina Khan' })]);
      // Past the privacy notice's 12 months, stored as the owner (created_at cannot come through the API).
      const longAgo = new Date(Date.now() - 400 * 86_400_000).toISOString();
      await storeWaitingRequest(db, { created_at: longAgo, full_name: 'Long Ago' });

      const heartbeat = () => call(url, { body: JSON.stringify({ task: 'heartbeat' }) });
      const today = ukDayOf(new Date());
      expect(await heartbeat()).toMatchObject({
        status: 200,
        body: { heartbeat: 'sent', day: today, purged: 1 },
      });
      expect(peer.mails).toHaveLength(1);
      const mail = peer.mails[0]!;
      expect(mail.to).toEqual([practice]);
      expect(mail.parsed.subject).toBe('Daily summary: 1 waiting, 1 new booking request');
      expect(mail.parsed.messageId).toMatch(
        new RegExp(`^<daily-summary-${today}-\\d+-[0-9a-z]+@rochester-hijama\\.example>$`),
      );

      expect((await heartbeat()).body).toEqual({
        heartbeat: 'already done',
        day: today,
        purged: null,
      });
      // The notifications' call keeps its contract.
      expect((await call(url)).body).toEqual({ sent: 1, failed: 0, pending: 0 });
      expect(peer.mails).toHaveLength(2);
    });

    it('goes on with the daily run when its settings are wrong, without the purge, its summary saying what to mend', async () => {
      const { peer, url } = await functionWithSmtp({ RETENTION: '12 months' });
      await insertAsVisitor([bookingWithId()]);
      // Said in the answer of the call that the set-up's check reads, too.
      expect((await call(url)).body).toEqual({
        sent: 1,
        failed: 0,
        pending: 0,
        daily_run: expect.stringMatching(/^runs with safe defaults: RETENTION must be/),
      });
      const longAgo = new Date(Date.now() - 400 * 86_400_000).toISOString();
      await storeWaitingRequest(db, { created_at: longAgo, full_name: 'Long Ago' });

      // Due all day, so that the test does not depend on the hour it runs at.
      const dueAllDay = await functionWithSmtp({
        RETENTION: '12 months',
        NOTIFY_DAILY_SUMMARY_AT: '00:00',
      });
      const heartbeat = await call(dueAllDay.url, { body: JSON.stringify({ task: 'heartbeat' }) });
      expect(heartbeat.body).toMatchObject({ heartbeat: 'sent', purged: null });
      const summary = dueAllDay.peer.mails[0]!.parsed;
      expect(summary.subject).toMatch(/, a setting to mend$/);
      expect(summary.text).toMatch(/^A setting is wrong .*\n {2}RETENTION must be/);
      expect(summary.text).toContain('Retention: no request is deleted until RETENTION is mended');
      expect(
        (await db.query(`select 1 from public.bookings where full_name = 'Long Ago'`)).rows,
      ).toHaveLength(1);

      // A wrong time: the run keeps the default, 07:00, rather than stopping.
      const wrongTime = await functionWithSmtp({ NOTIFY_DAILY_SUMMARY_AT: '25:00' });
      const answer = await call(wrongTime.url, { body: JSON.stringify({ task: 'heartbeat' }) });
      expect(answer.status).toBe(200);
      expect(peer.mails).toHaveLength(1);
    });

    it('says in its answer that an SMTP_URL on port 587 cannot reach its server from Supabase', async () => {
      const url = await startFunction({ SMTP_URL: 'smtp://127.0.0.1:587' });
      expect((await call(url)).body).toMatchObject({
        email: expect.stringMatching(/^SMTP_URL uses port 587, which Supabase's Edge Functions/),
      });
    });

    it('says in its answer that an SMTP_URL of port 465 needs smtps://, not smtp://', async () => {
      const url = await startFunction({ SMTP_URL: 'smtp://user:pass@127.0.0.1:465' });
      expect((await call(url)).body).toMatchObject({
        email: expect.stringMatching(/^SMTP_URL uses port 465 with smtp:\/\/.*Write smtps:\/\//),
      });
      // The right URL says nothing.
      const right = await startFunction({ SMTP_URL: 'smtps://user:pass@127.0.0.1:465' });
      expect((await call(right)).body).not.toHaveProperty('email');
    });

    it('says in its answer that SITE_URL is not set, or still the example, whose links lead nowhere', async () => {
      for (const SITE_URL of ['', 'https://www.rochester-hijama.example/']) {
        const url = await startFunction({ SMTP_URL: 'smtp://127.0.0.1:2525', SITE_URL });
        expect((await call(url)).body).toMatchObject({
          site_url: expect.stringMatching(
            /^SITE_URL is (not set|still the example).*leads nowhere/,
          ),
        });
      }
    });

    it('goes on sending notifications with the default of a wrong reminder or retry setting, keeping the right ones', async () => {
      const { peer, url } = await functionWithSmtp({
        NOTIFY_REMINDER_HOURS: '4h',
        NOTIFY_ALERT_AFTER_MINUTES: 'an hour',
      });
      await insertAsVisitor([bookingWithId()]);
      expect((await call(url)).body).toEqual({ sent: 1, failed: 0, pending: 0 });
      // The practice's notice alone: NOTIFY_ACKNOWLEDGE=off, right, still holds.
      expect(peer.mails).toHaveLength(1);
    });

    it("still answers every call with the mistake in a channel's own setting", async () => {
      const url = await startFunction({
        SMTP_URL: 'mail.example.com',
        NOTIFY_REMINDER_HOURS: '4h',
      });
      const answer = await call(url);
      expect(answer.status).toBe(500);
      expect(answer.body.error).toMatch(/SMTP_URL must look like .*NOTIFY_REMINDER_HOURS must be/);
    });

    it('is called by the database after a booking, with the address and secret from Vault', async () => {
      const { peer, url } = await functionWithSmtp();
      // Stand-ins for Supabase's pg_net and Vault, with their real names and
      // signatures: net.http_post records the request that pg_net would send.
      await db.exec(`
        create schema net;
        create table net.requests (url text, body jsonb, headers jsonb, timeout_milliseconds integer);
        create function net.http_post(
          url text,
          body jsonb default '{}'::jsonb,
          params jsonb default '{}'::jsonb,
          headers jsonb default '{"Content-Type": "application/json"}'::jsonb,
          timeout_milliseconds integer default 5000
        ) returns bigint language sql as $$
          insert into net.requests values (url, body, headers, timeout_milliseconds);
          select count(*) from net.requests;
        $$;
        create schema vault;
        create table vault.decrypted_secrets (name text, decrypted_secret text);
        -- The key that 20261201000200_notifications.sql stores in Vault where it exists.
        insert into vault.decrypted_secrets
          values ('hijama_answer_link_key', md5(random()::text) || md5(random()::text));
      `);
      onTestFinished(async () => {
        await db.exec('drop schema net cascade; drop schema vault cascade;');
      });
      const requests = async () =>
        (
          await db.query<{ url: string; body: unknown; headers: Record<string, string> }>(
            'select url, body, headers from net.requests',
          )
        ).rows;
      /** Sends `request` as pg_net sends what net.http_post recorded. */
      const sendAsPgNet = (request: Awaited<ReturnType<typeof requests>>[number]) =>
        call(request.url, { headers: request.headers, body: JSON.stringify(request.body) });

      // Not set up yet (no secrets in Vault): the booking is stored, nothing is called.
      await insertAsVisitor([bookingWithId({ full_name: 'Before Setup' })]);
      expect(await requests()).toEqual([]);

      await db.query(
        `insert into vault.decrypted_secrets values ('notify_bookings_url', $1), ('notify_bookings_secret', $2)`,
        [url, secret],
      );
      await insertAsVisitor([bookingWithId({ full_name: 'After Setup' })]);
      const [request] = await requests();
      expect(request).toEqual({
        url,
        body: {},
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${secret}` },
      });
      // Sent as pg_net sends it once the booking's transaction has committed.
      const answer = await sendAsPgNet(request!);
      expect(answer.body).toEqual({ sent: 2, failed: 0, pending: 0 });
      expect(peer.mails.map((mail) => mail.parsed.subject).sort()).toEqual([
        'Booking request from After Setup',
        'Booking request from Before Setup',
      ]);

      // The daily job of pg_cron calls the same function with the heartbeat task.
      await db.query('delete from net.requests');
      await db.query('select app_private.request_daily_summary()');
      const [daily] = await requests();
      expect(daily).toEqual({ ...request, body: { task: 'heartbeat' } });
      const dailyAnswer = await sendAsPgNet(daily!);
      expect(dailyAnswer.status).toBe(200);
      expect(dailyAnswer.body).toHaveProperty('heartbeat');

      // A request of a flood waits for the digest: it calls nothing, however many
      // arrive; the flood alert calls the function, once.
      await db.query('delete from net.requests');
      await db.transaction(async (tx) => {
        await tx.query(
          `insert into public.bookings (id, full_name, phone, email)
           values ($1, 'Flood Guest', '01634 123456', 'flood@example.com')`,
          [crypto.randomUUID()],
        );
        await tx.query(
          `update app_private.messages set in_digest = true
            where kind = 'notification' and done_at is null`,
        );
      });
      expect(await requests()).toEqual([]);
      await db.query(`insert into app_private.messages (kind) values ('flood')`);
      expect(await requests()).toEqual([request]);

      // A call that fails never fails the booking.
      await db.exec(`
        drop function net.http_post;
        create function net.http_post(
          url text, body jsonb, params jsonb, headers jsonb, timeout_milliseconds integer
        ) returns bigint language plpgsql as $$ begin raise exception 'queue full'; end $$;
      `);
      await insertAsVisitor([bookingWithId({ full_name: 'While Failing' })]);
      expect(await outboxRows()).toHaveLength(4);
    });
  });
});
