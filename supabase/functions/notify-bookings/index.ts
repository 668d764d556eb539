import { consoleLog } from '../_shared/notifications/setup.ts';
import { createNotifyHandler } from './handler.ts';

/**
 * The Supabase Edge Function that sends the booking notifications of a hosted
 * project (docs/notifications.md). Settings come from the function's secrets:
 * SUPABASE_DB_URL (set by Supabase), SMTP_URL, NOTIFY_TO, NOTIFY_FROM,
 * NOTIFY_WEBHOOK_URL, NOTIFY_NTFY_URL, NOTIFY_NTFY_TOKEN, NOTIFY_REMINDER_HOURS,
 * NOTIFY_ACKNOWLEDGE and NOTIFY_FUNCTION_SECRET (docs/configuration.md).
 *
 * Everything it imports is under supabase/functions/ (the shared code in
 * _shared/), so that Supabase can deploy it from this folder alone. Run
 * locally, from the project root:
 *
 *   node_modules/.bin/deno run --allow-all supabase/functions/notify-bookings/index.ts
 *
 * it serves on 127.0.0.1, port PORT (8000 by default).
 */

const handler = createNotifyHandler(Deno.env.toObject(), consoleLog);

// Supabase's edge runtime defines EdgeRuntime and routes the function's
// requests to the handler itself. Anywhere else the function listens on this
// machine only: the database that calls it is local too.
const onSupabase = 'EdgeRuntime' in globalThis;

if (onSupabase) {
  Deno.serve(handler);
} else {
  Deno.serve(
    {
      hostname: '127.0.0.1',
      port: Number(Deno.env.get('PORT') || 8000),
      onListen: ({ hostname, port }) => console.log(`Listening on http://${hostname}:${port}/`),
    },
    handler,
  );
}
