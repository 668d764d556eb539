import { consoleLog } from '../../../server/notifications/setup.ts';
import { createNotifyHandler } from './handler.ts';

/**
 * The Supabase Edge Function that sends the booking notifications of a hosted
 * project (docs/notifications.md). Settings come from the function's secrets:
 * SUPABASE_DB_URL (set by Supabase), SMTP_URL, NOTIFY_TO, NOTIFY_FROM,
 * NOTIFY_WEBHOOK_URL, NOTIFY_NTFY_URL, NOTIFY_NTFY_TOKEN, NOTIFY_REMINDER_HOURS,
 * NOTIFY_ACKNOWLEDGE and NOTIFY_FUNCTION_SECRET (docs/configuration.md).
 * Locally, from the project root:
 *
 *   node_modules/.bin/deno run --allow-all supabase/functions/notify-bookings/index.ts
 *
 * serves it on PORT (8000 by default).
 */

const port = Number(Deno.env.get('PORT') || 8000);

Deno.serve(
  {
    port,
    onListen: ({ hostname, port }) => console.log(`Listening on http://${hostname}:${port}/`),
  },
  createNotifyHandler(Deno.env.toObject(), consoleLog),
);
