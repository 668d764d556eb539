import { sendTimeoutMs, type NotificationChannel } from './channels.ts';
import type { ClaimedNotification, Outbox } from './outbox.ts';
import type { AlertStore } from './practice-alerts.ts';

/**
 * Sends the pending notifications of the outbox, one at a time: woken at once
 * after the server stores a booking, and checking every few seconds for
 * bookings stored elsewhere (hosted Supabase, another server). A failed
 * channel is retried with exponential backoff, the state kept in the database;
 * a channel that succeeded is recorded at once and never sent again.
 *
 * Nothing here can fail a booking: sends happen outside any transaction, and
 * every error is logged and retried later.
 */

export interface NotifierLog {
  info(message: string): void;
  error(message: string): void;
}

export interface NotifierOptions {
  outbox: Outbox;
  channels: readonly NotificationChannel[];
  pollIntervalMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /**
   * No other notifier can use this database (the embedded one, locked by this
   * process): claims left by a previous process that was killed are released
   * at start instead of waiting for their lease to expire.
   */
  exclusive: boolean;
  /** Alerts about the booking form itself, sent after the notifications. */
  alerts?: AlertStore;
  /**
   * Notifications still failing this long after their request arrived are
   * reported to the practice by an alert (with `alerts`), once each.
   */
  alertAfterMs?: number;
  log: NotifierLog;
}

export interface RunReport {
  sent: number;
  failed: number;
}

export interface Notifier {
  /** Sends what is due now, then keeps checking until stopped. */
  start(): void;
  /** Checks the outbox now (a booking was just stored). */
  wake(): void;
  /**
   * Sends everything due now, once; for the command line, a scheduler and the
   * Edge Function. With `claimForMs`, no notification is claimed after that
   * long, so that a run over a large backlog ends within a time limit.
   */
  runOnce(options?: { claimForMs?: number }): Promise<RunReport>;
  /** Finishes the send in progress, gives back what was claimed, closes the channels. */
  stop(): Promise<void>;
}

/** The delay before attempt `attempts + 1`: base, 2×base, 4×base… up to the cap. */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 30)), maxMs);
}

export function createNotifier(options: NotifierOptions): Notifier {
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

  async function sendOne(notification: ClaimedNotification): Promise<'sent' | 'failed'> {
    const failures: string[] = [];
    const pending = channels.filter((channel) => !notification.sent.has(channel.name));
    for (const channel of pending) {
      // Stopping between two channels: what was sent is recorded; the rest is for the next run.
      if (stopping && channel !== pending[0]) {
        await outbox.release(notification);
        return 'failed';
      }
      try {
        await channel.send(notification.booking);
      } catch (error) {
        failures.push(`${channel.description}: ${describeError(error)}`);
        continue;
      }
      if (!(await outbox.markSent(notification, channel.name))) {
        log.error(
          `Notification of booking ${notification.booking.id} was sent by ${channel.description}, but its claim had expired; it may be sent twice.`,
        );
        return 'sent';
      }
    }
    if (failures.length === 0) {
      await outbox.complete(notification);
      log.info(
        `Notified the practice of booking ${notification.booking.id} (${pending.map((channel) => channel.description).join(', ')}).`,
      );
      return 'sent';
    }
    const delayMs = retryDelayMs(notification.attempts, options.retryBaseMs, options.retryMaxMs);
    await outbox.retryLater(notification, delayMs, failures.join('; '));
    log.error(
      `Notification of booking ${notification.booking.id} failed (attempt ${notification.attempts}): ${failures.join('; ')}. Next attempt in ${formatDelay(delayMs)}.`,
    );
    return 'failed';
  }

  /**
   * The waiting alerts, oldest first: each is sent when any channel takes it;
   * the first that none takes is given back and tried again at the next run.
   */
  async function sendAlerts() {
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
    while (options.alerts && !stopping && channels.length > 0) {
      const alert = await options.alerts.claimNext();
      if (!alert) return;
      const { took, failures } = await sendThroughEvery(channels, (channel) =>
        channel.sendAlert(alert),
      );
      if (took.length > 0) {
        log.info(
          `Told the practice (${alert.kind.replaceAll('_', ' ')}) by ${took.join(' and ')}.`,
        );
        continue;
      }
      // Not at every poll: a broken account would be asked again every few seconds.
      await options.alerts.giveBack(alert, failures.join('; '), options.retryMaxMs);
      log.error(
        `An alert for the practice (${alert.kind}) could not be sent: ${failures.join('; ')}.`,
      );
      return;
    }
  }

  async function run(claimUntil = Infinity): Promise<RunReport> {
    const report: RunReport = { sent: 0, failed: 0 };
    try {
      await releaseStaleClaims();
      // Each notification is tried at most once per run, however short the retry delay.
      const tried = new Set<string>();
      while (!stopping && Date.now() < claimUntil) {
        const notification = await outbox.claimNext(crypto.randomUUID(), leaseMs);
        if (!notification) break;
        if (tried.has(notification.booking.id)) {
          await outbox.release(notification);
          break;
        }
        tried.add(notification.booking.id);
        report[await sendOne(notification)] += 1;
      }
      await sendAlerts();
      lastOutboxError = undefined;
    } catch (error) {
      const message = describeError(error);
      if (message !== lastOutboxError) {
        log.error(`Notifications: could not read or update the outbox: ${message}`);
      }
      lastOutboxError = message;
      report.failed += 1;
    }
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
    start() {
      if (started) return;
      started = true;
      trigger();
    },
    wake() {
      if (started) trigger();
    },
    async runOnce(options = {}) {
      while (running) await running;
      running = run(Date.now() + (options.claimForMs ?? Infinity));
      try {
        return await running;
      } finally {
        running = undefined;
      }
    },
    async stop() {
      stopping = true;
      clearTimeout(timer);
      while (running) await running.catch(() => {});
      for (const channel of channels) channel.close();
    },
  };
}

/**
 * Sends one message through every channel in turn: the channels that took it,
 * and why each of the others did not.
 */
export async function sendThroughEvery(
  channels: readonly NotificationChannel[],
  send: (channel: NotificationChannel) => Promise<void>,
): Promise<{ took: string[]; failures: string[] }> {
  const took: string[] = [];
  const failures: string[] = [];
  for (const channel of channels) {
    try {
      await send(channel);
      took.push(channel.description);
    } catch (error) {
      failures.push(`${channel.description}: ${describeError(error)}`);
    }
  }
  return { took, failures };
}

/** An error in one line, with its code (EAUTH, ECONNREFUSED…) when the message lacks it. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' && !error.message.includes(code)
      ? `${error.message} (${code})`
      : error.message;
  }
  return String(error);
}

function formatDelay(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.round(ms / 60_000)} min`;
}
