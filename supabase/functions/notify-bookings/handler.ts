import { createHash, timingSafeEqual } from 'node:crypto';
import { ConfigError } from '../../../server/config.ts';
import { DatabaseUnavailableError } from '../../../server/db/database.ts';
import { openPostgres } from '../../../server/db/postgres.ts';
import type { NotifierLog } from '../../../server/notifications/notifier.ts';
import {
  loadNotifyConfig,
  type NotifyConfig,
} from '../../../server/notifications/notify-config.ts';
import { createOutbox } from '../../../server/notifications/outbox.ts';
import { createConfiguredNotifier } from '../../../server/notifications/setup.ts';

/**
 * The notify-bookings Edge Function's requests: `POST` with
 * `Authorization: Bearer <NOTIFY_FUNCTION_SECRET>` sends every notification
 * that is due, with the same outbox, notifier and e-mail as the project's
 * server and `npm run notify`, and answers how it went. The database calls it
 * after every booking and every minute (supabase/setup-notify.sql).
 */

type Env = Record<string, string | undefined>;

/** What a run answers: notifications sent, failed (to be retried), and not yet sent. */
export interface NotifyRunResult {
  sent: number;
  failed: number;
  pending: number;
}

/**
 * No notification is claimed after this long in one request: with sends of at
 * most 30 s per channel, the answer comes well before Supabase's limit of
 * 150 s, and whatever is left waits for the next call.
 */
const claimForMs = 60_000;

export function createNotifyHandler(
  env: Env,
  log: NotifierLog,
): (request: Request) => Promise<Response> {
  const secret = env.NOTIFY_FUNCTION_SECRET?.trim() || undefined;
  const databaseUrl = env.SUPABASE_DB_URL?.trim() || undefined;
  const problems: string[] = [];
  let config: NotifyConfig | undefined;
  try {
    config = loadNotifyConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
  }
  if (!databaseUrl) problems.push('SUPABASE_DB_URL is not set.');
  if (!problems.length && !config) {
    problems.push(
      'No notification channel is configured: set SMTP_URL and NOTIFY_TO (and NOTIFY_FROM), or NOTIFY_WEBHOOK_URL.',
    );
  }

  return async (request) => {
    if (request.method !== 'POST') {
      return json(405, { error: 'Use POST.' }, { Allow: 'POST' });
    }
    if (!secret) {
      return json(500, { error: 'NOTIFY_FUNCTION_SECRET is not set.' });
    }
    if (!hasBearer(request, secret)) {
      return json(401, { error: 'Unauthorized.' }, { 'WWW-Authenticate': 'Bearer' });
    }
    if (problems.length > 0 || !config || !databaseUrl) {
      return json(500, { error: problems.join(' ') });
    }
    try {
      return json(200, await sendDue(databaseUrl, config, log));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.error(`Notifications: ${message}`);
      return json(error instanceof DatabaseUnavailableError ? 503 : 500, { error: message });
    }
  };
}

async function sendDue(
  databaseUrl: string,
  config: NotifyConfig,
  log: NotifierLog,
): Promise<NotifyRunResult> {
  const db = await openPostgres(databaseUrl);
  try {
    const outbox = createOutbox(db);
    if (!(await outbox.exists())) {
      throw new Error(
        'The database has no notification outbox: apply the migrations of supabase/migrations (supabase db push).',
      );
    }
    const { notifier } = createConfiguredNotifier(db, config, log);
    let report;
    try {
      report = await notifier.runOnce({ claimForMs });
    } finally {
      await notifier.stop();
    }
    return { ...report, pending: await outbox.countPending() };
  } finally {
    await db.close();
  }
}

/** Compares the whole header in constant time: both sides are hashed to the same length first. */
function hasBearer(request: Request, secret: string): boolean {
  const given = request.headers.get('Authorization') ?? '';
  return timingSafeEqual(sha256(given), sha256(`Bearer ${secret}`));
}

function sha256(text: string): Uint8Array {
  return createHash('sha256').update(text).digest();
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}
