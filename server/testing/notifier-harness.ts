import { afterEach, beforeEach } from 'vitest';
import { createBookingsRepository } from '../../supabase/functions/_shared/db/bookings-repository.ts';
import type { NotificationChannel } from '../../supabase/functions/_shared/notifications/channels.ts';
import { createFloodDigests } from '../../supabase/functions/_shared/notifications/flood-digests.ts';
import type { Database } from '../../supabase/functions/_shared/db/database.ts';
import {
  createNotifier,
  type Notifier,
  type NotifierTask,
} from '../../supabase/functions/_shared/notifications/notifier.ts';
import { createOutbox } from '../../supabase/functions/_shared/notifications/outbox.ts';
import { createAlertStore } from '../../supabase/functions/_shared/notifications/practice-alerts.ts';
import { wakeAfterInserts } from '../notifications/wake-after-inserts.ts';
import { anonJsonHeaders, type TestEngine } from './helpers.ts';
import { useTestApp } from './test-database.ts';
import {
  startNtfyPeer,
  startSmtpPeer,
  startWebhookReceiver,
  testSiteUrl,
} from './notification-peers.ts';

/**
 * What the notifier's tests run on, for one describe block: a migrated
 * database of `engine`, the booking API in front of it (a stored booking wakes
 * every notifier of the test, as the server wakes its own), notifiers that
 * log into `errors` and `infos`, and peers closed after each test. Before each
 * test the bookings and `tablesToEmpty` (of app_private) are emptied.
 */

/** A request's notification, with what each channel took. */
export interface NotificationRow {
  booking_id: string;
  attempts: number;
  email_sent: boolean;
  webhook_sent: boolean;
  ntfy_sent: boolean;
  completed: boolean;
  last_error: string | null;
}

export function useNotifierHarness(engine: TestEngine, tablesToEmpty: readonly string[]) {
  const notifiers: Notifier[] = [];
  const app = useTestApp(engine, (db) => ({
    bookings: wakeAfterInserts(createBookingsRepository(db), {
      wake: () => notifiers.forEach((n) => n.wake()),
    }),
  }));
  const closers: (() => Promise<void>)[] = [];
  const errors: string[] = [];
  const infos: string[] = [];
  const db = () => app.db;

  beforeEach(async () => {
    await db().query('delete from public.bookings');
    for (const table of tablesToEmpty) await db().query(`delete from app_private.${table}`);
    errors.length = 0;
    infos.length = 0;
  });

  afterEach(async () => {
    for (const notifier of notifiers.splice(0)) await notifier.stop();
    for (const close of closers.splice(0)) await close();
  });

  const harness = {
    /** The database, once the block's tests run. */
    get db() {
      return db();
    },
    /** The booking API's address. */
    get baseUrl() {
      return app.baseUrl;
    },
    errors,
    infos,
    /**
     * A notifier through `channels`, started unless `start` is false; with
     * `tasks` run at the clock `now`, on `db` (another connection) when given.
     */
    startNotifier(
      channels: NotificationChannel[],
      options: {
        start?: boolean;
        retryMs?: number;
        alertAfterMs?: number;
        tasks?: NotifierTask[];
        now?: () => Date;
        db?: Database;
      } = {},
    ) {
      let ran = () => {};
      const database = options.db ?? db();
      const notifier = createNotifier({
        siteUrl: testSiteUrl,
        outbox: createOutbox(database),
        channels,
        pollIntervalMs: 100,
        retryBaseMs: options.retryMs ?? 200,
        retryMaxMs: options.retryMs ?? 400,
        exclusive: false,
        alerts: createAlertStore(database),
        alertAfterMs: options.alertAfterMs,
        digests: createFloodDigests(database),
        tasks: options.tasks,
        now: options.now,
        log: { info: (message) => infos.push(message), error: (message) => errors.push(message) },
        afterRun: () => ran(),
      });
      notifiers.push(notifier);
      if (options.start !== false) notifier.start();
      return {
        ...notifier,
        /** Resolves once `count` more runs have ended (the one in progress counts). */
        async runs(count: number) {
          for (let i = 0; i < count; i++) await new Promise<void>((resolve) => (ran = resolve));
        },
      };
    },
    async smtpPeer(options: Parameters<typeof startSmtpPeer>[0] = {}) {
      const peer = await startSmtpPeer(options);
      closers.push(peer.close);
      return peer;
    },
    async ntfyPeer(options: Parameters<typeof startNtfyPeer>[0] = {}) {
      const peer = await startNtfyPeer(options);
      closers.push(peer.close);
      return peer;
    },
    async webhookReceiver(statuses: number[] = []) {
      const hook = await startWebhookReceiver(statuses);
      closers.push(hook.close);
      return hook;
    },
    /** Runs `close` after the current test. */
    afterTest(close: () => Promise<void>) {
      closers.push(close);
    },
    /**
     * Posts `body` to the booking API as the form does, with `headers` besides:
     * its status, how long the API took and when it answered (Date.now()).
     */
    async post(body: unknown, headers: Record<string, string> = {}) {
      const started = Date.now();
      const response = await fetch(`${harness.baseUrl}/rest/v1/bookings`, {
        method: 'POST',
        headers: { ...anonJsonHeaders, ...headers },
        body: JSON.stringify(body),
      });
      await response.body?.cancel();
      const at = Date.now();
      return { status: response.status, ms: at - started, at };
    },
    /** The notifications of requests, oldest first. */
    async notificationRows() {
      const { rows } = await db().query<NotificationRow>(
        `select booking_id::text, attempts, email_sent_at is not null as email_sent,
                webhook_sent_at is not null as webhook_sent, ntfy_sent_at is not null as ntfy_sent,
                done_at is not null as completed, last_error
           from app_private.messages where kind = 'notification' order by created_at, booking_id`,
      );
      return rows;
    },
    /** Makes every stored request older by `minutes`, as if it had arrived that long ago. */
    async ageRequests(minutes: number) {
      await db().query(
        `update public.bookings set created_at = created_at - make_interval(mins => $1)`,
        [minutes],
      );
    },
  };
  return harness;
}
