import { postJson, type NotificationChannel } from './channels.ts';
import {
  composeAlertPush,
  composeBookingPush,
  composeDailySummaryPush,
  composeFloodDigestPush,
  composeReminderPush,
  type NtfyMessage,
} from './ntfy-messages.ts';

/**
 * ntfy push (ntfy.sh, or a server of the practice's own): a notification on
 * the practitioner's phone, through ntfy's free app, that does not depend on
 * the e-mail account. Messages are published in ntfy's JSON form, a POST to
 * the server's root with the topic in the body (docs.ntfy.sh/publish, "Publish
 * as JSON"): unlike its headers, JSON carries any name as it is written
 * (Zoë, Łucja), and the buttons as a plain array.
 */

interface NtfySettings {
  /** The topic's address, `https://ntfy.sh/<topic>` (NOTIFY_NTFY_URL). */
  topicUrl: string;
  /** An access token of the ntfy server, sent as `Authorization: Bearer` (NOTIFY_NTFY_TOKEN). */
  token: string | undefined;
}

/** ntfy's rule for a topic's name. */
const topicName = /^[-_A-Za-z0-9]{1,64}$/;

/**
 * The server's root (where JSON is published) and the topic of a topic's
 * address, or undefined when it is not one: `https://push.example.com/ntfy/alerts`
 * is the topic `alerts` of the server at `https://push.example.com/ntfy/`.
 */
export function parseTopicUrl(topicUrl: string): { root: string; topic: string } | undefined {
  let url: URL;
  try {
    url = new URL(topicUrl);
  } catch {
    return undefined;
  }
  if (!['https:', 'http:'].includes(url.protocol) || url.search !== '' || url.hash !== '') {
    return undefined;
  }
  const slash = url.pathname.lastIndexOf('/');
  const topic = url.pathname.slice(slash + 1);
  if (!topicName.test(topic)) return undefined;
  return { root: `${url.origin}${url.pathname.slice(0, slash + 1)}`, topic };
}

export function createNtfyChannel(settings: NtfySettings, siteUrl: string): NotificationChannel {
  const target = parseTopicUrl(settings.topicUrl);
  if (!target) throw new Error('NOTIFY_NTFY_URL is not the address of an ntfy topic.');
  const publish = async (message: NtfyMessage) => {
    const response = await postJson(
      target.root,
      { topic: target.topic, ...message },
      settings.token === undefined ? {} : { Authorization: `Bearer ${settings.token}` },
    );
    const answer = await response.text().catch(() => '');
    if (response.status < 200 || response.status > 299) {
      throw new Error(
        `the ntfy server answered ${response.status} ${response.statusText}${ntfyReason(answer)}`.trim(),
      );
    }
  };
  return {
    name: 'ntfy',
    // The topic is left out: without a token, its name is the secret.
    description: `ntfy push to ${new URL(target.root).origin}`,
    send: (notice) => publish(composeBookingPush(notice, siteUrl)),
    sendAlert: (alert) => publish(composeAlertPush(alert)),
    sendDailySummary: (summary) => publish(composeDailySummaryPush(summary)),
    sendFloodDigest: (digest) => publish(composeFloodDigestPush(digest)),
    sendReminder: (reminder) => publish(composeReminderPush(reminder)),
    sendTest: (test) =>
      publish({
        title: test.subject,
        message: test.text,
        priority: 3,
        tags: ['test_tube'],
        actions: [],
      }),
    // Nothing to check without publishing: a push is tried with the first request.
    verify: async () => {},
    close: () => {},
  };
}

/** ntfy's own reason, from its JSON error (`{"code": 40101, "error": "unauthorized", …}`). */
function ntfyReason(answer: string): string {
  try {
    const { error } = JSON.parse(answer) as { error?: unknown };
    return typeof error === 'string' && error !== '' ? `: ${error.slice(0, 200)}` : '';
  } catch {
    return '';
  }
}
