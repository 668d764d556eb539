import { sendTimeoutMs, type NotificationChannel } from './channels.ts';
import { composeFloodDigest, floodDigestIntervalMs } from './flood-digest.ts';
import type { FloodDigests } from './flood-digests.ts';
import type { ClaimedMessage, Held, MessageQueue } from './message-queue.ts';
import type { NotifyConfig } from './notify-config.ts';
import type { Outbox } from './outbox.ts';
import type { AlertStore } from './practice-alerts.ts';

/**
 * Sends the pending notifications of the outbox, one at a time: woken at once
 * after the server stores a booking, and checking every few seconds for
 * bookings stored elsewhere (hosted Supabase, another server). A failed
 * channel is retried with exponential backoff, the state kept in the database;
 * a channel that succeeded is recorded at once and never sent again. The
 * requests of a flood are not sent one by one but in a digest, at most one
 * every 15 minutes (flood-digest.ts), retried the same way.
 *
 * Nothing here can fail a booking: sends happen outside any transaction, and
 * every error is logged and retried later.
 */

export interface NotifierLog {
  info(message: string): void;
  error(message: string): void;
}

/**
 * Work done at every run after the notifications and the alerts: the
 * reminders of waiting requests (reminders.ts), the acknowledgements to
 * visitors (acknowledgements.ts). A task's failure is logged and tried again
 * at the next run; it never stops the others.
 */
export interface NotifierTask {
  /** For the log: "reminders". */
  name: string;
  run(context: NotifierTaskContext): Promise<void>;
  /** Closes what the task opened (an SMTP connection), when the notifier stops. */
  close?(): void;
}

interface NotifierTaskContext {
  channels: readonly NotificationChannel[];
  /** The notifier's clock (the real one, except in tests). */
  now: Date;
  /** How long a claim of this run holds: longer than a send through every channel. */
  leaseMs: number;
  /**
   * True once stop() was called or the run's time to claim is over: finish the
   * send in progress, start no other.
   */
  isStopping(): boolean;
  log: NotifierLog;
}

interface NotifierOptions extends Pick<
  NotifyConfig,
  'siteUrl' | 'pollIntervalMs' | 'retryBaseMs' | 'retryMaxMs'
> {
  /** The one queue of messages, which every kind is claimed from and settled in. */
  outbox: Outbox;
  channels: readonly NotificationChannel[];
  /**
   * No other notifier can use this database (the embedded one, locked by this
   * process): claims left by a previous process that was killed are released
   * at start instead of waiting for their lease to expire.
   */
  exclusive: boolean;
  /** Alerts about the booking form itself, sent after the notifications. */
  alerts?: AlertStore;
  /** The digests of the requests of a flood, sent after the alerts. */
  digests?: FloodDigests;
  /**
   * Notifications still failing this long after their request arrived are
   * reported to the practice by an alert (with `alerts`), once each.
   */
  alertAfterMs?: number;
  /** Done at every run, in this order, after the alerts. */
  tasks?: readonly NotifierTask[];
  /** The clock the tasks are given; tests set it. */
  now?: () => Date;
  /**
   * Called at the end of every run, polled or not. Tests await runs with it
   * where they would otherwise wait for a time, to see that nothing more is sent.
   */
  afterRun?: () => void;
  log: NotifierLog;
}

/**
 * Requests the practice was told of, and not (to be retried); a digest counts
 * its requests. A step that could not run at all (the outbox unreadable, a task
 * failing) counts as one failed, so that the function's answer and
 * `notify --once`'s exit code show it, not the log alone.
 */
interface RunReport {
  sent: number;
  failed: number;
}

/** The delay before attempt `attempts + 1`: base, 2×base, 4×base… up to the cap. */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 30)), maxMs);
}

export type Notifier = ReturnType<typeof createNotifier>;

export function createNotifier(options: NotifierOptions) {
  const { outbox, channels, log } = options;
  // A claim outlives the longest possible attempt, so that a slow send is not
  // taken over by another notifier while it is still in progress.
  const leaseMs = channels.length * sendTimeoutMs + 60_000;
  let started = false;
  let stopping = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<RunReport> | undefined;
  let wakeAgain = false;
  let claimsReleased = !options.exclusive;
  // One message per kind of outage, not one per poll.
  let lastOutboxError: string | undefined;

  async function releaseStaleClaims() {
    if (claimsReleased) return;
    const released = await outbox.releaseAllClaims();
    claimsReleased = true;
    if (released > 0) {
      log.info(`Notifications: ${released} interrupted by the previous stop will be sent again.`);
    }
  }

  /**
   * Sends a claimed message through each channel that has not taken it yet,
   * recording each success at once, then settles it, or gives it back with
   * the reasons for a retry with backoff, or at once when stopped between two
   * channels: the one place where the retry and give-up rules apply to what
   * goes through every channel. `subject` names it in the log, `delivered`
   * says what reached the practice; `settle` records it as sent, `retryLater`
   * gives it back.
   */
  async function sendClaimed(
    message: ClaimedMessage,
    words: { subject: string; delivered: string },
    send: (channel: NotificationChannel) => Promise<void>,
    settle: () => Promise<unknown>,
    retryLater: (delayMs: number, error: string) => Promise<unknown>,
  ): Promise<'sent' | 'failed' | 'stopped'> {
    const pending = channels.filter((channel) => !message.sent.has(channel.name));
    const by = pending.map((channel) => channel.description).join(', ');
    const failures: string[] = [];
    for (const channel of pending) {
      if (stopping && channel !== pending[0]) {
        // What was sent is recorded; the rest is for the next run.
        await outbox.release(message);
        return 'stopped';
      }
      try {
        await send(channel);
      } catch (error) {
        failures.push(`${channel.description}: ${describeError(error)}`);
        continue;
      }
      if (!(await outbox.markSent(message, channel.name))) {
        log.error(
          `${words.subject} was sent by ${channel.description}, but its claim had expired; it may be sent twice.`,
        );
        return 'sent';
      }
    }
    if (failures.length === 0) {
      await settle();
      log.info(`${words.delivered} (${by}).`);
      return 'sent';
    }
    const delayMs = retryDelayMs(message.attempts, options.retryBaseMs, options.retryMaxMs);
    const error = failures.join('; ');
    await retryLater(delayMs, error);
    log.error(
      `${words.subject} failed (attempt ${message.attempts}): ${error}. Next attempt in ${formatDelay(delayMs)}.`,
    );
    return 'failed';
  }

  /** The digest of the requests of a flood, when one is due; its requests are counted in the report. */
  async function sendDigest(report: RunReport) {
    const { digests } = options;
    if (!digests || channels.length === 0 || stopping) return;
    const digest = await digests.claimNext(leaseMs, floodDigestIntervalMs);
    if (!digest) return;
    const count = digest.requests.length;
    const what = `flood digest ${digest.id} (${count} request${count === 1 ? '' : 's'})`;
    if (count === 0) {
      // Its requests were deleted before it could be sent.
      await digests.complete(digest);
      return;
    }
    const message = composeFloodDigest({ ...digest, siteUrl: options.siteUrl });
    const outcome = await sendClaimed(
      digest,
      { subject: `The ${what}`, delivered: `Sent the practice the ${what}` },
      (channel) => channel.sendFloodDigest(message),
      () => digests.complete(digest),
      (delayMs, error) => digests.retryLater(digest, delayMs, error),
    );
    if (outcome !== 'stopped') report[outcome] += count;
  }

  /**
   * The waiting alerts, oldest first: each is sent when any channel takes it;
   * the first that none takes is given back and tried again at the next run.
   */
  async function sendAlerts(claiming: () => boolean) {
    if (options.alerts && options.alertAfterMs !== undefined && channels.length > 0) {
      const reported = await options.alerts.reportFailing(
        options.alertAfterMs,
        channels.map((channel) => channel.name),
      );
      if (reported > 0) {
        log.error(
          `Notifications: ${reported} still failing after ${formatDelay(options.alertAfterMs)}; telling the practice through every channel that works.`,
        );
      }
    }
    while (options.alerts && claiming() && channels.length > 0) {
      const claimed = await options.alerts.claimNext(leaseMs);
      if (!claimed) return;
      // Checked at every attempt: a notification may get through while its alert waits.
      const alert = await options.alerts.withoutDelivered(claimed);
      if (!alert) {
        log.info(
          `An alert for the practice (${claimed.kind}) was not sent: the notifications it reported have got through since.`,
        );
        continue;
      }
      const outcome = await sendOnceToPractice({
        channels,
        queue: outbox,
        held: alert.message,
        // Not at every poll: a broken account would be asked again every few seconds.
        retryMs: options.retryMaxMs,
        // Settled with the error of an earlier attempt kept, if any.
        keepError: true,
        log,
        send: (channel) => channel.sendAlert(alert),
        sent: (by) => `Told the practice (${alert.kind.replaceAll('_', ' ')}) by ${by}.`,
        failed: (error) => `An alert for the practice (${alert.kind}) could not be sent: ${error}.`,
      });
      if (!outcome.sent) return;
    }
  }

  async function runTasks(claiming: () => boolean, report: RunReport) {
    for (const task of options.tasks ?? []) {
      if (!claiming()) return;
      try {
        await task.run({
          channels,
          now: options.now?.() ?? new Date(),
          leaseMs,
          isStopping: () => !claiming(),
          log,
        });
      } catch (error) {
        log.error(`Notifications: the ${task.name} failed: ${describeError(error)}`);
        report.failed += 1;
      }
    }
  }

  async function run(claimUntil = Infinity): Promise<RunReport> {
    const report: RunReport = { sent: 0, failed: 0 };
    try {
      await releaseStaleClaims();
      // Each notification is tried at most once per run, however short the retry delay.
      const tried = new Set<string>();
      // Every kind of message alike: nothing claimed after claimUntil.
      const claiming = () => !stopping && Date.now() < claimUntil;
      while (claiming()) {
        const notification = await outbox.claimNotification(leaseMs);
        if (!notification) break;
        const { booking } = notification;
        if (tried.has(booking.id)) {
          await outbox.release(notification);
          break;
        }
        tried.add(booking.id);
        const outcome = await sendClaimed(
          notification,
          {
            subject: `Notification of booking ${booking.id}`,
            delivered: `Notified the practice of booking ${booking.id}`,
          },
          (channel) => channel.send(booking),
          () => outbox.settle(notification, 'sent', { note: null }),
          (delayMs, error) => outbox.retryLater(notification, delayMs, error),
        );
        report[outcome === 'sent' ? 'sent' : 'failed'] += 1;
      }
      await sendAlerts(claiming);
      if (claiming()) await sendDigest(report);
      await runTasks(claiming, report);
      lastOutboxError = undefined;
    } catch (error) {
      const message = describeError(error);
      if (message !== lastOutboxError) {
        log.error(`Notifications: could not read or update the outbox: ${message}`);
      }
      lastOutboxError = message;
      report.failed += 1;
    }
    options.afterRun?.();
    return report;
  }

  function schedule(delayMs: number) {
    if (stopping || !started) return;
    clearTimeout(timer);
    timer = setTimeout(trigger, delayMs);
  }

  function trigger() {
    if (stopping) return;
    if (running) {
      wakeAgain = true;
      return;
    }
    clearTimeout(timer);
    running = run();
    void running.finally(() => {
      running = undefined;
      if (wakeAgain) {
        wakeAgain = false;
        schedule(0);
      } else {
        schedule(options.pollIntervalMs);
      }
    });
  }

  return {
    /** Sends what is due now, then keeps checking until stopped. */
    start() {
      if (started) return;
      started = true;
      trigger();
    },
    /** Checks the outbox now (a booking was just stored). */
    wake() {
      if (started) trigger();
    },
    /**
     * Sends everything due now, once; for the command line, a scheduler and the
     * Edge Function. With `claimForMs`, no message of any kind is claimed after
     * that long, so that a run over a large backlog ends within a time limit;
     * what is left waits for the next run.
     */
    async runOnce(options: { claimForMs?: number } = {}) {
      while (running) await running;
      running = run(Date.now() + (options.claimForMs ?? Infinity));
      try {
        return await running;
      } finally {
        running = undefined;
      }
    },
    /** Finishes the send in progress, gives back what was claimed, closes the channels. */
    async stop() {
      stopping = true;
      clearTimeout(timer);
      while (running) await running.catch(() => {});
      for (const channel of channels) channel.close();
      for (const task of options.tasks ?? []) task.close?.();
    },
  };
}

/** A message the practice needs once, how it is sent, and the lines logged of it. */
export interface SendOnce {
  channels: readonly NotificationChannel[];
  queue: MessageQueue;
  held: Held;
  /** How long it waits, when no channel took it, before it is due again. */
  retryMs: number;
  /** The clock of the settle and the retry; the database's when omitted. */
  at?: Date;
  /** Settled with the error of an earlier attempt kept, instead of clearing it. */
  keepError?: boolean;
  log: NotifierLog;
  send(channel: NotificationChannel): Promise<void>;
  /** The line when the channels `by` ("e-mail to … and ntfy …") took it. */
  sent(by: string): string;
  /** The line when no channel took it, for the reasons in `error`. */
  failed(error: string): string;
  /** The line when some channel did not take it; nothing is logged without it. */
  partly?(error: string): string;
}

export async function sendOnceToPractice(
  message: SendOnce,
): Promise<{ sent: true; settled: number } | { sent: false; error: string }> {
  const took: string[] = [];
  const failures: string[] = [];
  for (const channel of message.channels) {
    try {
      await message.send(channel);
      took.push(channel.description);
    } catch (error) {
      failures.push(`${channel.description}: ${describeError(error)}`);
    }
  }
  const error = failures.join('; ');
  if (took.length === 0) {
    await message.queue.retryLater(message.held, message.retryMs, error, message.at);
    message.log.error(message.failed(error));
    return { sent: false, error };
  }
  const note = message.keepError ? undefined : null;
  const settled = await message.queue.settle(message.held, 'sent', { note, at: message.at });
  message.log.info(message.sent(took.join(' and ')));
  if (failures.length > 0 && message.partly) message.log.error(message.partly(error));
  return { sent: true, settled };
}

/**
 * An error in one line, with its code (EAUTH, ECONNREFUSED…) when the message
 * lacks it, and without e-mail addresses: what it says is logged and kept in
 * last_error, and an SMTP server's reply often quotes a visitor's address.
 */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return withoutAddresses(
      typeof code === 'string' && !error.message.includes(code)
        ? `${error.message} (${code})`
        : error.message,
    );
  }
  return withoutAddresses(String(error));
}

/**
 * `text` with every e-mail address (anything@anything) replaced. An apostrophe
 * is part of an address (`o'neil@…`, which the booking form accepts), so it
 * does not end one: otherwise `<sean.o'neil@…>` would keep `sean.o'`.
 */
export function withoutAddresses(text: string): string {
  return text.replace(/[^\s<>"(),;:[\]]+@[^\s<>"(),;:[\]]+/g, 'an address');
}

/** "200 ms", "30 s", "10 min": how long until a next attempt, in every log line that says it. */
export function formatDelay(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.round(ms / 60_000)} min`;
}
