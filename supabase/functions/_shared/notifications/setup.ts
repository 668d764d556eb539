import type { Database } from '../db/database.ts';
import { createAcknowledgementTask } from './acknowledgements.ts';
import { createEmailChannel, createWebhookChannel, type NotificationChannel } from './channels.ts';
import { createFloodDigests } from './flood-digests.ts';
import { createNotifier, type Notifier, type NotifierLog } from './notifier.ts';
import { createNtfyChannel } from './ntfy.ts';
import type { NotifyConfig } from './notify-config.ts';
import { createOutbox } from './outbox.ts';
import { createAlertStore } from './practice-alerts.ts';
import { createReminderTask } from './reminders.ts';

/** The configured channels, e-mail first. */
export function createChannels(config: NotifyConfig): NotificationChannel[] {
  const channels: NotificationChannel[] = [];
  if (config.email) channels.push(createEmailChannel(config.email, config.siteUrl));
  if (config.webhookUrl) channels.push(createWebhookChannel(config.webhookUrl));
  if (config.ntfy) channels.push(createNtfyChannel(config.ntfy, config.siteUrl));
  return channels;
}

/** The notifier of the configured channels, on `db`; shared by the server and the command line. */
export function createConfiguredNotifier(
  db: Database,
  config: NotifyConfig,
  log: NotifierLog,
): { notifier: Notifier; channels: NotificationChannel[] } {
  const channels = createChannels(config);
  const notifier = createNotifier({
    outbox: createOutbox(db),
    channels,
    siteUrl: config.siteUrl,
    pollIntervalMs: config.pollIntervalMs,
    retryBaseMs: config.retryBaseMs,
    retryMaxMs: config.retryMaxMs,
    // The embedded database is locked by this process: no other notifier can be using it.
    exclusive: db.engine === 'pglite',
    alerts: createAlertStore(db),
    alertAfterMs: config.alertAfterMs,
    digests: createFloodDigests(db),
    tasks: [
      createReminderTask({
        db,
        remindBeforeReplyByMs: config.remindBeforeReplyByMs,
        retryMs: config.retryMaxMs,
        siteUrl: config.siteUrl,
      }),
      ...(config.email && config.acknowledge
        ? [
            createAcknowledgementTask({
              db,
              email: config.email,
              retryBaseMs: config.retryBaseMs,
              retryMaxMs: config.retryMaxMs,
            }),
          ]
        : []),
    ],
    log,
  });
  return { notifier, channels };
}

export const consoleLog: NotifierLog = {
  info: (message) => console.log(message),
  error: (message) => console.error(message),
};
