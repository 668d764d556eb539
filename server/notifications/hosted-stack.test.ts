import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortReference } from '../../supabase/functions/_shared/core/booking-reference.ts';
import type { Database } from '../../supabase/functions/_shared/db/database.ts';
import { openPostgres } from '../../supabase/functions/_shared/db/postgres.ts';
import {
  startNtfyPeer,
  startSmtpPeer,
  waitFor,
  type NtfyPeer,
  type ReceivedMail,
  type SmtpPeer,
} from '../testing/notification-peers.ts';
import { installDeno } from '../testing/deno.ts';
import type { ChildRun } from '../testing/processes.ts';
import { readNewPgliteCatalog, readSchemaCatalog } from '../testing/schema-catalog.ts';
import {
  insertAsPostgrest,
  pushMigrations,
  startEdgeFunction,
  startSupabaseStack,
  type SupabaseStack,
} from '../testing/supabase-stack.ts';
import { bookingWithId } from '../testing/booking-samples.ts';
import * as visitorEmails from '../../supabase/functions/_shared/content/visitor-emails.ts';

/**
 * The hosted path end to end, on the parts of a hosted Supabase project that
 * plain PostgreSQL lacks, for real: pg_net calls the notify-bookings Edge
 * Function (run by the project's Deno) with the address and secret it reads
 * from Vault, after a booking stored as PostgREST stores it and, for the
 * reminders, from pg_cron's job. Nothing in this file calls the function.
 * It runs where the supabase-stack directory is (SUPABASE_STACK_DIR, else
 * ../shared/supabase-stack beside the project); see its README.
 */

const execFileAsync = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const stackDir = process.env.SUPABASE_STACK_DIR ?? path.resolve(root, '../shared/supabase-stack');
const entry = path.join(root, 'supabase', 'functions', 'notify-bookings', 'index.ts');
const secret = 'hosted-function-secret-0123456789abcdef';
const practice = 'practice@example.com';
const practiceFrom = 'bookings@rochester-hijama.example';
const ntfyToken = 'tk_hostedstack0123456789abcdefgh';
const visitorHeaders = { 'cf-connecting-ip': '203.0.113.9' };

describe.runIf(existsSync(path.join(stackDir, 'start.sh')))(
  'the hosted path on a Supabase database with pg_net, Vault and pg_cron',
  () => {
    let stack: SupabaseStack | undefined;
    let db: Database | undefined;
    let smtp: SmtpPeer | undefined;
    let ntfy: NtfyPeer | undefined;
    let notifyFunction: ChildRun | undefined;
    let stopFunction: (() => Promise<void>) | undefined;
    /** What the migrations alone made, before the notifier's set-up. */
    let catalogAfterMigrations: string[] = [];

    beforeAll(async () => {
      // The function's npm packages, fetched once so that its start waits for no registry.
      const installing = installDeno().then((deno) =>
        execFileAsync(deno, ['install', '--entrypoint', entry], { cwd: root }),
      );
      // Its failure is reported where it is awaited, not as an unhandled rejection before.
      installing.catch(() => {});
      stack = await startSupabaseStack(stackDir);
      db = await openPostgres(stack.url);
      await pushMigrations(db, path.join(root, 'supabase', 'migrations'));
      catalogAfterMigrations = await readSchemaCatalog(db);
      [smtp, ntfy] = await Promise.all([startSmtpPeer(), startNtfyPeer({ token: ntfyToken })]);
      await installing;

      const started = await startEdgeFunction({
        entry,
        // The function's secrets, as `supabase secrets set` stores them; NOTIFY_ACKNOWLEDGE
        // and NOTIFY_REMINDER_HOURS keep their defaults.
        env: {
          SUPABASE_DB_URL: stack.url,
          NOTIFY_FUNCTION_SECRET: secret,
          SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
          NOTIFY_TO: practice,
          NOTIFY_FROM: `Rochester Hijama <${practiceFrom}>`,
          NOTIFY_NTFY_URL: ntfy.topicUrl('hijama-practice'),
          NOTIFY_NTFY_TOKEN: ntfyToken,
        },
      });
      notifyFunction = started.run;
      stopFunction = started.stop;

      // The set-up of docs/notifications.md: the secrets in Vault, as the SQL editor stores
      // them, then supabase/setup-notify.sql.
      await db.query(
        `select vault.create_secret($1, 'notify_bookings_url'), vault.create_secret($2, 'notify_bookings_secret')`,
        [started.url, secret],
      );
      await db.exec(await readFile(path.join(root, 'supabase', 'setup-notify.sql'), 'utf8'));
      // pg_cron 1.5 and later run a job every few seconds, which spares the
      // reminder's test most of a minute; earlier ones refuse the schedule,
      // and the test waits for the every-minute job.
      await db
        .query(
          `select cron.schedule('notify-bookings', '5 seconds', 'select app_private.request_notification_send()')`,
        )
        .catch(() => {});
    }, 360_000);

    afterAll(async () => {
      await stopFunction?.();
      await db?.close();
      await Promise.all([smtp?.close(), ntfy?.close()]);
      await stack?.stop();
    });

    /** What pg_net received from the function, oldest first. */
    async function functionAnswers() {
      const { rows } = await db!.query<{ status_code: number | null; content: string | null }>(
        'select status_code, content from net._http_response order by id',
      );
      return rows;
    }

    /**
     * Whether pg_net has sent every call queued so far and has the function's
     * answer to each: no call is on its way to the function.
     */
    async function noCallUnderway(): Promise<boolean> {
      const { rows } = await db!.query<{ idle: boolean }>(
        `select not exists (select 1 from net.http_request_queue)
            and coalesce((select max(id) from net._http_response), 0)
                >= coalesce(pg_sequence_last_value('net.http_request_queue_id_seq'), 0) as idle`,
      );
      return rows[0]!.idle;
    }

    /** Fails with the function's output and the database's log, which say why. */
    async function explained<T>(work: () => Promise<T>): Promise<T> {
      try {
        return await work();
      } catch (error) {
        const answers = JSON.stringify(await functionAnswers().catch(() => []));
        throw new Error(
          `${String(error)}\npg_net's answers: ${answers}\n` +
            `The function said:\n${notifyFunction?.stdout()}\n${notifyFunction?.stderr()}\n` +
            `The database's log:\n${stack?.log().split('\n').slice(-40).join('\n')}`,
          { cause: error },
        );
      }
    }

    /** The first e-mail that `matches`, once it has arrived. */
    async function waitForMail(
      matches: (mail: ReceivedMail) => boolean,
      what: string,
      timeoutMs?: number,
    ): Promise<ReceivedMail> {
      await waitFor(() => smtp!.mails.some(matches), what, timeoutMs);
      return smtp!.mails.find(matches)!;
    }

    async function outboxCompleted(id: string) {
      const { rows } = await db!.query<{ completed: boolean }>(
        `select done_at is not null as completed
           from app_private.messages where kind = 'notification' and booking_id = $1`,
        [id],
      );
      return rows[0]?.completed;
    }

    it("makes the same schema as on the embedded database, Supabase's extensions and roles notwithstanding", async () => {
      const onPglite = await readNewPgliteCatalog();
      expect(onPglite.length).toBeGreaterThan(100);
      // The server's record of the migrations it ran is its own (Supabase keeps
      // its record in a schema of its own).
      const migrationsRecord = (line: string) => line.includes('app_private.schema_migrations');
      expect(catalogAfterMigrations).toEqual(onPglite.filter((line) => !migrationsRecord(line)));
    }, 60_000);

    it('e-mails and pushes a booking stored as PostgREST stores it, and tells the visitor, through pg_net', async () => {
      const sent = bookingWithId();
      const started = Date.now();
      await insertAsPostgrest(db!, sent, visitorHeaders);

      const title = `Booking request from ${sent.full_name}`;
      await explained(() =>
        waitFor(
          () =>
            smtp!.mails.some((mail) => mail.parsed.subject === title) &&
            ntfy!.messages.some((push) => push.title === title),
          'the e-mail and the push of the booking',
        ),
      );
      const push = ntfy!.messages.find((message) => message.title === title)!;
      console.log(`Hosted path, anon insert to ntfy push: ${push.receivedAt - started} ms.`);
      expect(push).toMatchObject({
        topic: 'hijama-practice',
        authorization: `Bearer ${ntfyToken}`,
      });
      expect(push.message).toContain(`Ref ${shortReference(sent.id)}, received `);
      const notice = smtp!.mails.find((mail) => mail.parsed.subject === title)!;
      expect(notice.to).toEqual([practice]);

      // The visitor's acknowledgement, from the practice's address.
      const acknowledgement = await explained(() =>
        waitForMail((mail) => mail.to.includes(sent.email!), "the visitor's acknowledgement"),
      );
      expect(acknowledgement.to).toEqual([sent.email]);
      expect(acknowledgement.parsed.subject).toBe(
        visitorEmails.acknowledgement.subject(shortReference(sent.id)),
      );
      expect(acknowledgement.parsed.from?.address).toBe(practiceFrom);
      expect(acknowledgement.from).toBe(notice.from);

      // The call was the database's own: pg_net has the function's answer.
      await waitFor(
        async () => (await functionAnswers()).some((answer) => answer.status_code === 200),
        "pg_net's record of the function's answer",
      );
    }, 60_000);

    it('refuses to set up with an empty secret in Vault, as a new shell stores an unset $secret', async () => {
      const setUp = await readFile(path.join(root, 'supabase', 'setup-notify.sql'), 'utf8');
      await expect(
        db!.transaction(async (tx) => {
          await tx.query(
            `select vault.update_secret(id, '') from vault.secrets where name = 'notify_bookings_secret'`,
          );
          await tx.exec(setUp);
        }),
      ).rejects.toThrow(/missing or empty/);
    });

    it("keeps a week of pg_cron's runs, with a job that deletes the older ones", async () => {
      const { rows: jobs } = await db!.query<{ jobid: number; command: string }>(
        `select jobid, command from cron.job where jobname = 'notify-bookings-history'`,
      );
      expect(jobs).toHaveLength(1);
      const old = await db!.query<{ runid: number }>(
        `insert into cron.job_run_details (jobid, command, status, start_time, end_time)
         values ($1, 'select 1', 'succeeded', now() - interval '8 days', now() - interval '8 days')
         returning runid`,
        [jobs[0]!.jobid],
      );
      await db!.exec(jobs[0]!.command);
      const { rows } = await db!.query(`select 1 from cron.job_run_details where runid = $1`, [
        old.rows[0]!.runid,
      ]);
      expect(rows).toEqual([]);
    });

    it("reminds the practice of a request waiting close to its reply-by time, through pg_cron's job", async () => {
      const waiting = bookingWithId({ full_name: 'Bilal Ahmed', email: 'bilal@example.com' });
      await insertAsPostgrest(db!, waiting, visitorHeaders);
      await explained(() =>
        waitForMail((mail) => mail.to.includes(waiting.email!), "the visitor's acknowledgement"),
      );
      await waitFor(async () => (await outboxCompleted(waiting.id)) === true, 'the notification');
      // No call of the booking's own (its wake, or a job's) may still be on its
      // way: one that reached the function after the update below would send
      // the reminder without the job.
      await waitFor(noCallUnderway, 'pg_net to have sent every call and had its answer');

      // 21 hours on (the clock cannot move, so the request moves back): past the
      // reminder's time, 4 hours (NOTIFY_REMINDER_HOURS) before its reply-by
      // time. An update wakes nothing: only pg_cron's job calls the function now.
      const { rows } = await db!.query<{ aged_at: Date }>(
        `update public.bookings set created_at = now() - interval '21 hours'
          where id = $1 returning clock_timestamp() as aged_at`,
        [waiting.id],
      );
      const agedAt = rows[0]!.aged_at;
      const started = Date.now();
      const isReminder = (text: string | undefined) => text?.includes(shortReference(waiting.id));
      const reminder = await explained(() =>
        waitForMail(
          (mail) =>
            mail.to.includes(practice) &&
            (mail.parsed.subject ?? '').startsWith('A request waits for a reply') &&
            !!isReminder(mail.parsed.text),
          'the reminder',
          75_000,
        ),
      );
      await waitFor(
        () =>
          ntfy!.messages.some(
            (push) => push.title === reminder.parsed.subject && isReminder(push.message),
          ),
        'the reminder push',
      );
      console.log(
        `Hosted path, reminder through pg_cron ${reminder.receivedAt - started} ms after it was due.`,
      );

      // The call came from the job: a run of it started once the request was
      // due, or in the schedule's interval before (pg_net sends a run's call
      // from its own queue, which may be after the update).
      const runs = await db!.query<{ status: string }>(
        `select d.status from cron.job_run_details d join cron.job j using (jobid)
          where j.jobname = 'notify-bookings' and d.start_time >= $1::timestamptz - interval '1 minute'`,
        [agedAt],
      );
      expect(runs.rows.map((run) => run.status)).toContain('succeeded');
    }, 90_000);
  },
);
