import nodemailer, { type SendMailOptions } from 'nodemailer';
import { composeBookingEmail, composeWebhookBody, type BookingNotice } from './booking-notice.ts';
import type { ChannelName } from './channel-names.ts';
import type { DailySummaryMessage } from './daily-summary.ts';
import type { FloodDigestMessage } from './flood-digest.ts';
import { composeAlert, type PracticeAlert } from './practice-alerts.ts';
import type { ReminderMessage } from './reminder-message.ts';
import type { TestMessage } from './test-message.ts';

/** A way of telling the practice about a booking; `send` rejects when it did not get through. */
export interface NotificationChannel {
  name: ChannelName;
  /** For the start-up line, without secrets. */
  description: string;
  send(notice: BookingNotice): Promise<void>;
  /** Tells the practice about the booking form itself (practice-alerts.ts). */
  sendAlert(alert: PracticeAlert): Promise<void>;
  /** Sends the practice its daily summary (daily-summary.ts). */
  sendDailySummary(summary: DailySummaryMessage): Promise<void>;
  /** Sends the practice the requests of a flood, together (flood-digest.ts). */
  sendFloodDigest(digest: FloodDigestMessage): Promise<void>;
  /** Reminds the practice of the requests close to their reply-by time (reminder-message.ts). */
  sendReminder(reminder: ReminderMessage): Promise<void>;
  /**
   * Checks, without sending anything, that the channel can be used: the SMTP
   * login for e-mail. Rejects with the reason when it cannot.
   */
  verify(): Promise<void>;
  /** Sends a message that says it is a test (`npx hijama check`): no booking is made. */
  sendTest(test: TestMessage): Promise<void>;
  close(): void;
}

/** The longest a single send may take before it counts as failed. */
export const sendTimeoutMs = 30_000;

export interface EmailSettings {
  /** smtp://user:pass@host:port or smtps://… */
  smtpUrl: string;
  to: string[];
  from: string;
}

/** Nodemailer's timeouts, in ms: a dead server holds a send no longer than these. */
export const smtpTimeouts = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 20_000,
};

/** The port SMTP_URL names, or the one nodemailer takes for its scheme: 465 for smtps://, else 587. */
export function smtpPort(url: URL): string {
  return url.port || (url.protocol === 'smtps:' ? '465' : '587');
}

/**
 * smtp:// on port 465 (a URL for 587 whose port alone was changed): 465 speaks
 * TLS from the first byte, so a client that waits for the server's greeting
 * waits until its timeout, on the server and in the Edge Function alike.
 */
export function isPlainSmtpOnTlsPort(url: URL): boolean {
  return url.protocol === 'smtp:' && smtpPort(url) === '465';
}

/** A mailbox as nodemailer takes it whole, never parsing it for names, comments or lists. */
interface Mailbox {
  name: string;
  address: string;
}

/**
 * The mailbox of a configured address, `bookings@example.com` or
 * `Clinic <bookings@example.com>` (notify-config.ts checks which).
 */
export function mailboxOf(configured: string): Mailbox {
  const named = /^(.*?)\s*<([^<>]+)>$/.exec(configured);
  if (!named) return { name: '', address: configured };
  return { name: named[1]!.replace(/^"(.*)"$/, '$1'), address: named[2]!.trim() };
}

/** `<key@domain of the sender>`: a Message-ID the same at every attempt of one message. */
function messageIdFor(key: string, from: string): string {
  const domain = from.slice(from.lastIndexOf('@') + 1).replace(/>$/, '');
  return `<${key}@${domain || 'localhost'}>`;
}

/**
 * Sends from NOTIFY_FROM through the SMTP connection of SMTP_URL, whose
 * timeouts keep a dead server from holding a send, each message within
 * sendTimeoutMs and with the Message-ID of `key`, the same at every attempt:
 * a mail client that gets a repeat can tell.
 */
export function createMailer(settings: EmailSettings) {
  const transport = nodemailer.createTransport({ url: settings.smtpUrl, ...smtpTimeouts });
  const from = mailboxOf(settings.from);
  return {
    send: (key: string, mail: Omit<SendMailOptions, 'from' | 'messageId' | 'signal'>) =>
      transport.sendMail({
        from,
        ...mail,
        messageId: messageIdFor(key, settings.from),
        signal: AbortSignal.timeout(sendTimeoutMs),
      }),
    verify: () => transport.verify(),
    close: () => transport.close(),
  };
}

/**
 * The key of a message its database numbers (an alert, a flood digest, a
 * day's summary by its run): the
 * number and the moment the row was made, the same at every attempt. The
 * number alone comes again in another database (a new install, a trial one
 * sending to the same inbox, rows an upgrade renumbered), and Gmail keeps one
 * message per Message-ID: the later one would never show.
 */
export function numberedMessageKey(kind: string, id: string, createdAt: Date): string {
  return `${kind}-${id}-${createdAt.getTime().toString(36)}`;
}

export function createEmailChannel(settings: EmailSettings, siteUrl: string): NotificationChannel {
  const mailer = createMailer(settings);
  const to = settings.to.map(mailboxOf);
  /** A message to the practice; `key` makes its Message-ID. */
  const mailPractice = async (
    { subject, text, html }: { subject: string; text: string; html?: string },
    key: string,
    extra: { replyTo?: Mailbox; headers?: Record<string, string> } = {},
  ) => {
    await mailer.send(key, {
      to,
      subject,
      text,
      ...(html === undefined ? {} : { html }),
      ...extra,
    });
  };
  return {
    name: 'email',
    description: `e-mail to ${settings.to.join(', ')}`,
    async send(notice) {
      const email = composeBookingEmail(notice, siteUrl);
      await mailPractice(email, `booking-${notice.id}`, {
        replyTo: email.replyTo,
        headers: { 'X-Booking-Id': notice.id },
      });
    },
    sendAlert: (alert) =>
      mailPractice(composeAlert(alert), numberedMessageKey('alert', alert.id, alert.createdAt)),
    sendDailySummary: (summary) => mailPractice(summary, summary.key),
    sendFloodDigest: (digest) =>
      mailPractice(digest, numberedMessageKey('flood-digest', digest.id, digest.createdAt)),
    sendReminder: (reminder) => mailPractice(reminder, `reminder-${reminder.id}`),
    async sendTest(test) {
      const { rejected } = await mailer.send(`test-${test.id}`, {
        to,
        subject: test.subject,
        text: test.text,
      });
      // A message fails only when the server refuses every recipient: the
      // set-up check's test names one refused among several, which would never
      // be told of a request.
      if (rejected.length > 0) throw new RecipientsRefusedError(rejected);
    },
    async verify() {
      await mailer.verify();
    },
    close: mailer.close,
  };
}

/** Some of the practice's addresses (NOTIFY_TO) that the mail server refused, the others taking the message. */
export class RecipientsRefusedError extends Error {
  constructor(readonly addresses: readonly string[]) {
    super(`the mail server refused ${addresses.join(', ')}`);
    this.name = 'RecipientsRefusedError';
  }
}

/**
 * An address's user and password as an Authorization header, and the address
 * without them: Node's fetch refuses an address that holds them ("Request
 * cannot be constructed from a URL that includes credentials"), which Deno's
 * sends so.
 */
function credentialsAsHeader(url: string): {
  address: string;
  authorization: Record<string, string>;
} {
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return { address: url, authorization: {} };
  const credentials = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
  parsed.username = '';
  parsed.password = '';
  const bytes = String.fromCharCode(...new TextEncoder().encode(credentials));
  return { address: parsed.href, authorization: { Authorization: `Basic ${btoa(bytes)}` } };
}

/** POSTs `body` as JSON, as the notifier, with `headers` besides, within sendTimeoutMs. */
export async function postJson(url: string, body: unknown, headers: Record<string, string>) {
  const { address, authorization } = credentialsAsHeader(url);
  try {
    return await fetch(address, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'hijama-notifier',
        ...authorization,
        ...headers,
      },
      body: JSON.stringify(body),
      // A redirect would turn the POST into a GET: report it instead.
      redirect: 'manual',
      signal: AbortSignal.timeout(sendTimeoutMs),
    });
  } catch (error) {
    // Supabase's runtime names the address it could not reach, whose path may
    // be the channel's secret (a webhook's token, an ntfy topic), and what is
    // said of a failure goes into logs, alerts and the daily summary.
    if (error instanceof Error) {
      const { href, origin } = new URL(url);
      for (const named of [href, url, address])
        error.message = error.message.replaceAll(named, origin);
    }
    throw error;
  }
}

export function createWebhookChannel(url: string): NotificationChannel {
  const post = async (body: unknown, idempotencyKey: string) => {
    // The same key for every attempt, so that the receiver can ignore a repeat.
    const response = await postJson(url, body, { 'Idempotency-Key': idempotencyKey });
    await response.body?.cancel();
    if (response.status < 200 || response.status > 299) {
      throw new Error(`the webhook answered ${response.status} ${response.statusText}`.trim());
    }
  };
  return {
    name: 'webhook',
    description: `webhook to ${new URL(url).origin}`,
    send: (notice) => post(composeWebhookBody(notice), notice.id),
    sendAlert: (alert) =>
      post(
        {
          type: 'practice.alert',
          alert: {
            kind: alert.kind,
            created_at: alert.createdAt.toISOString(),
            ...composeAlert(alert),
          },
        },
        numberedMessageKey('alert', alert.id, alert.createdAt),
      ),
    sendDailySummary: (summary) =>
      post(
        {
          type: 'practice.daily_summary',
          summary: { day: summary.day, subject: summary.subject, text: summary.text },
        },
        summary.key,
      ),
    sendFloodDigest: (digest) =>
      post(digest.webhookBody, numberedMessageKey('flood-digest', digest.id, digest.createdAt)),
    sendReminder: (reminder) => post(reminder.webhookBody, `reminder-${reminder.id}`),
    sendTest: (test) =>
      post({ type: 'practice.test', subject: test.subject, text: test.text }, `test-${test.id}`),
    // Nothing to check without sending: a webhook is tried with the first request.
    verify: async () => {},
    close: () => {},
  };
}
