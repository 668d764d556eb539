import { ConfigError, type Env } from '../config.ts';
import { practice } from '../content/practice.ts';
import { siteUrlFrom, siteUrlProblem } from '../content/site-url.ts';
import { parseTopicUrl } from './ntfy.ts';

const { replyWithinHours } = practice;

const defaults = {
  pollSeconds: 5,
  retrySeconds: 30,
  retryMaxSeconds: 600,
  alertAfterMinutes: 60,
  reminderHours: 4,
};

/** NOTIFY_REMINDER_HOURS's default, in milliseconds (a restore of a 1.0.0 backup needs it unset too). */
export const defaultRemindBeforeReplyByMs = defaults.reminderHours * 3_600_000;

/** What to set for a channel, for the messages that say none is configured. */
export const channelSettingsHint =
  'SMTP_URL and NOTIFY_TO (and NOTIFY_FROM), or NOTIFY_WEBHOOK_URL, or NOTIFY_NTFY_URL';

/**
 * Without a token, anyone who knows the topic's name reads its pushes: a name
 * this short could be guessed.
 */
const minOpenTopicLength = 16;

/** How the practice is told of new booking requests; read from the environment. */
export type NotifyConfig = NonNullable<ReturnType<typeof loadNotifyConfig>>;

/** What a deployer may write for on and off. */
const switchWords = new Map<string, 'on' | 'off'>([
  ...['on', 'yes', 'true', '1'].map((word) => [word, 'on'] as const),
  ...['off', 'no', 'false', '0'].map((word) => [word, 'off'] as const),
]);

/**
 * Undefined when no channel is configured: the notifier does not run.
 *
 * `forgiveTimingMistakes`: where the only mistakes are in the settings that say
 * when notices go (the poll, retry, alert and reminder delays), they are
 * handed to it and those settings take their defaults, rather than thrown. The
 * hosted function does so, where a log is the only place a mistake shows and
 * a refusal stops every notice; the server refuses to start, loudly.
 */
export function loadNotifyConfig(
  env: Env = process.env,
  { forgiveTimingMistakes }: { forgiveTimingMistakes?: (problems: string[]) => void } = {},
) {
  const problems: string[] = [];
  const timingMistakes = new Set<string>();
  const timingMistake = (problem: string) => {
    problems.push(problem);
    timingMistakes.add(problem);
  };
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };

  const smtpUrl = read('SMTP_URL');
  const to = read('NOTIFY_TO');
  const from = read('NOTIFY_FROM');
  const webhookUrl = read('NOTIFY_WEBHOOK_URL');
  const ntfyUrl = read('NOTIFY_NTFY_URL');
  const ntfyToken = read('NOTIFY_NTFY_TOKEN');

  if (smtpUrl !== undefined && !hasProtocol(smtpUrl, ['smtp:', 'smtps:'])) {
    problems.push(
      'SMTP_URL must look like smtp://user:password@smtp.example.com:587 (or smtps:// for port 465); escape special characters of the password with %XX.',
    );
  }
  if (smtpUrl !== undefined && to === undefined) {
    problems.push(
      'NOTIFY_TO must name the address that receives booking requests when SMTP_URL is set.',
    );
  }
  if (smtpUrl === undefined && (to !== undefined || from !== undefined)) {
    problems.push('NOTIFY_TO and NOTIFY_FROM need SMTP_URL, the server that sends the e-mail.');
  }
  const recipients = to === undefined ? [] : to.split(',').map((address) => address.trim());
  if (to !== undefined && !recipients.every(isAddress)) {
    problems.push(
      `NOTIFY_TO must be an e-mail address, or several separated by commas (got "${to}").`,
    );
  }
  if (from !== undefined && !isAddress(from) && !isNamedAddress(from)) {
    problems.push(
      `NOTIFY_FROM must be an e-mail address, optionally with a name: Clinic <bookings@example.com> (got "${from}").`,
    );
  }
  if (webhookUrl !== undefined && !hasProtocol(webhookUrl, ['https:', 'http:'])) {
    problems.push('NOTIFY_WEBHOOK_URL must be an https:// (or http://) address.');
  }
  // The values are not quoted back: the topic's name and the token are secrets.
  const ntfyTarget = ntfyUrl === undefined ? undefined : parseTopicUrl(ntfyUrl);
  if (ntfyUrl !== undefined && ntfyTarget === undefined) {
    problems.push(
      'NOTIFY_NTFY_URL must be the address of an ntfy topic, e.g. https://ntfy.sh/<topic>, the topic made of letters, digits, - and _ (at most 64), with nothing after it.',
    );
  }
  if (ntfyTarget && ntfyToken === undefined && ntfyTarget.topic.length < minOpenTopicLength) {
    problems.push(
      `NOTIFY_NTFY_URL: without NOTIFY_NTFY_TOKEN, anyone who knows the topic reads the pushes, so its name must be at least ${minOpenTopicLength} random characters (e.g. the output of \`openssl rand -hex 16\`).`,
    );
  }
  if (ntfyToken !== undefined && ntfyUrl === undefined) {
    problems.push('NOTIFY_NTFY_TOKEN needs NOTIFY_NTFY_URL, the topic it publishes to.');
  }
  if (ntfyToken !== undefined && !/^[\x21-\x7e]+$/.test(ntfyToken)) {
    problems.push(
      'NOTIFY_NTFY_TOKEN must be an access token of the ntfy server (tk_…), without spaces.',
    );
  }

  const duration = (name: string, fallback: number, unit: 'seconds' | 'minutes') => {
    const [unitMs, max] = unit === 'seconds' ? [1000, 86_400] : [60_000, 10_080];
    const text = read(name);
    if (text === undefined) return fallback * unitMs;
    const value = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
    if (!(value > 0 && value <= max)) {
      timingMistake(
        `${name} must be a number of ${unit} above 0 and at most ${max} (got "${text}").`,
      );
      return fallback * unitMs;
    }
    return value * unitMs;
  };
  const seconds = (name: string, fallback: number) => duration(name, fallback, 'seconds');
  const pollIntervalMs = seconds('NOTIFY_POLL_SECONDS', defaults.pollSeconds);
  let retryBaseMs = seconds('NOTIFY_RETRY_SECONDS', defaults.retrySeconds);
  let retryMaxMs = seconds('NOTIFY_RETRY_MAX_SECONDS', defaults.retryMaxSeconds);
  const alertAfterMs = duration(
    'NOTIFY_ALERT_AFTER_MINUTES',
    defaults.alertAfterMinutes,
    'minutes',
  );
  const reminderText = read('NOTIFY_REMINDER_HOURS');
  let reminderHours = defaults.reminderHours;
  if (reminderText !== undefined) {
    const value = /^\d+(\.\d+)?$/.test(reminderText) ? Number(reminderText) : Number.NaN;
    if (value >= 0 && value <= replyWithinHours) {
      reminderHours = value;
    } else {
      timingMistake(
        `NOTIFY_REMINDER_HOURS must be a number of hours from 0 to ${replyWithinHours}, fractions allowed: how long before a waiting request's reply-by time it is reminded (got "${reminderText}").`,
      );
    }
  }
  const acknowledgeText = read('NOTIFY_ACKNOWLEDGE')?.toLowerCase();
  // The words a deployer may mean by on and off: a mistake here stops every
  // notice on hosted Supabase, where only the function's log says so.
  const acknowledgeSwitch =
    acknowledgeText === undefined ? undefined : switchWords.get(acknowledgeText);
  if (acknowledgeText !== undefined && acknowledgeSwitch === undefined) {
    problems.push(
      `NOTIFY_ACKNOWLEDGE must be on or off: whether the visitor is e-mailed that the request arrived (got "${read('NOTIFY_ACKNOWLEDGE')}").`,
    );
  }
  if (acknowledgeSwitch === 'on' && smtpUrl === undefined) {
    problems.push(
      'NOTIFY_ACKNOWLEDGE=on needs SMTP_URL and NOTIFY_TO: the acknowledgement is an e-mail from the practice.',
    );
  }
  const siteUrlText = read('SITE_URL');
  const siteUrlMistake = siteUrlProblem(siteUrlText);
  if (siteUrlMistake) problems.push(siteUrlMistake);
  if (retryMaxMs < retryBaseMs) {
    timingMistake('NOTIFY_RETRY_MAX_SECONDS must not be below NOTIFY_RETRY_SECONDS.');
    [retryBaseMs, retryMaxMs] = [defaults.retrySeconds * 1000, defaults.retryMaxSeconds * 1000];
  }

  const forgiven =
    forgiveTimingMistakes && problems.every((problem) => timingMistakes.has(problem));
  if (problems.length > 0 && !forgiven) throw new ConfigError(problems);
  if (problems.length > 0) forgiveTimingMistakes?.(problems);
  if (smtpUrl === undefined && webhookUrl === undefined && ntfyUrl === undefined) return undefined;
  return {
    /** Set when SMTP_URL and NOTIFY_TO are. */
    email:
      smtpUrl === undefined ? undefined : { smtpUrl, to: recipients, from: from ?? recipients[0]! },
    /** NOTIFY_WEBHOOK_URL. */
    webhookUrl,
    /** Set when NOTIFY_NTFY_URL is (with NOTIFY_NTFY_TOKEN, if any). */
    ntfy: ntfyUrl === undefined ? undefined : { topicUrl: ntfyUrl, token: ntfyToken },
    /** How often the outbox is checked for requests stored by someone else (NOTIFY_POLL_SECONDS). */
    pollIntervalMs,
    /** The first retry's delay, doubled at each failure (NOTIFY_RETRY_SECONDS)… */
    retryBaseMs,
    /** …up to this (NOTIFY_RETRY_MAX_SECONDS). */
    retryMaxMs,
    /**
     * A notification still failing this long after its request arrived is
     * reported to the practice through every channel, once (NOTIFY_ALERT_AFTER_MINUTES).
     */
    alertAfterMs,
    /**
     * A request still waiting this long before its reply-by time is reminded,
     * once, through every channel (NOTIFY_REMINDER_HOURS, 0 to 24 hours: 0 at
     * the reply-by time itself, 24 as soon as it arrives).
     */
    remindBeforeReplyByMs: reminderHours * 3_600_000,
    /**
     * Whether the visitor is e-mailed that the request arrived
     * (NOTIFY_ACKNOWLEDGE, on by default): only with e-mail configured.
     */
    acknowledge: smtpUrl !== undefined && acknowledgeSwitch !== 'off',
    /** SITE_URL (practice.url when unset): the site every link of the messages opens. */
    siteUrl: siteUrlFrom(siteUrlText),
  };
}

function hasProtocol(value: string, protocols: string[]): boolean {
  try {
    const url = new URL(value);
    return protocols.includes(url.protocol) && url.hostname !== '';
  } catch {
    return false;
  }
}

const address = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;

function isAddress(value: string): boolean {
  return address.test(value);
}

/** `Name <address>`: the name must not hold line breaks or brackets. */
function isNamedAddress(value: string): boolean {
  const match = /^([^<>\r\n]*)<([^<>]+)>$/.exec(value);
  return match !== null && isAddress(match[2]!.trim());
}
