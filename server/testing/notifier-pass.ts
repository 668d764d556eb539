import type { Database } from '../../supabase/functions/_shared/db/database.ts';
import { runDaily } from '../../supabase/functions/_shared/notifications/daily-run.ts';
import { loadNotifyConfig } from '../../supabase/functions/_shared/notifications/notify-config.ts';
import { createConfiguredNotifier } from '../../supabase/functions/_shared/notifications/setup.ts';
import { startSmtpPeer } from './notification-peers.ts';

/** What the notifier is set to in a pass: e-mail to the practice, the summary at midnight. */
export const passSchedule = { at: { hour: 0, minute: 0 }, summary: true };

/**
 * One pass of everything the practice's notifier does (notifications, alerts,
 * digests, reminders, acknowledgements, the daily run) on `db`, into a new
 * SMTP peer; answers the subjects of the messages it took. What a restored or
 * upgraded database sends again shows here.
 */
export async function notifierPass(db: Database): Promise<string[]> {
  const smtp = await startSmtpPeer();
  try {
    const config = loadNotifyConfig({
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      NOTIFY_TO: 'practice@example.com',
      NOTIFY_FROM: 'bookings@rochester-hijama.example',
    })!;
    const log = { info: () => {}, error: (message: string) => console.error(message) };
    const { notifier, channels } = createConfiguredNotifier(db, config, log);
    await notifier.runOnce();
    await notifier.stop();
    await runDaily({
      db,
      channels,
      schedule: passSchedule,
      retention: undefined,
      retryMs: 60_000,
      siteUrl: config.siteUrl,
      log,
    });
    return smtp.mails.map((mail) => mail.parsed.subject ?? '');
  } finally {
    await smtp.close();
  }
}
