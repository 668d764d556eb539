import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs, parseEnv } from 'node:util';
import { ConfigError } from '../config.ts';
import { DatabaseUnavailableError } from '../db/database.ts';
import { DatabaseRoleError } from '../db/open-database.ts';
import { MigrationError } from '../db/migrate.ts';
import { createOutbox } from '../notifications/outbox.ts';
import { createConfiguredNotifier } from '../notifications/setup.ts';
import { describePeriod, parsePeriod, parseSince, periodBefore } from '../retention/period.ts';
import { loadSettings, type Settings } from '../settings.ts';
import { formatUkTimeLong } from '../uk-time.ts';
import { formatCsv, formatFailingWarning, formatJson, formatTable } from './bookings-output.ts';
import { CliError, openBookingsSource, openDirect, requireTable } from './bookings-source.ts';

/**
 * `npm run bookings`: lists, exports and purges booking requests, and runs the
 * notifier on its own (for a hosted Supabase database). Reads the same
 * environment and .env as the server. The process itself (arguments, streams,
 * signals, exit code) is bookings.ts; this module only sees `CliIo`.
 */

export interface CliIo {
  /** The environment; the .env file of `cwd` fills in what it lacks. */
  env: Record<string, string | undefined>;
  cwd: string;
  /** Results (the table, CSV, JSON): resolves once written. */
  out(text: string): Promise<void>;
  /** Messages and summaries. */
  err(text: string): void;
  /** Resolves with the signal's name when the user asks a long-running command to stop. */
  untilStopped(): Promise<string>;
}

const usage = `Usage:
  npm run bookings [-- list] [--since <when>] [--limit <n>|all] [--csv | --json]
  npm run bookings -- purge --older-than <period> [--dry-run]
  npm run bookings -- notify [--once]

list (the default)   the most recent booking requests, newest first
  --since <when>     only those received since: a period (7d, 2w, 6m, 1y),
                     a date (2026-11-01, from midnight UK time) or a date and
                     time with its offset (2026-11-01T09:00:00Z)
  --limit <n>|all    at most n requests (default 100)
  --csv              CSV for a spreadsheet (add --silent after npm run to keep
                     npm's own lines out of a redirected file)
  --json             JSON

purge                deletes the requests older than the period, with their
                     notifications, and prints how many
  --older-than <p>   d, w, m or y: 30d, 8w, 12m, 2y (months are calendar months)
  --dry-run          only counts them

notify               sends the pending notifications (SMTP_URL, NOTIFY_TO,
                     NOTIFY_WEBHOOK_URL), then keeps checking until stopped
  --once             sends what is due and exits (for cron or a scheduler);
                     exit code 1 if a send failed

The database: DATABASE_URL when set (PostgreSQL or Supabase), otherwise the
embedded one in DATA_DIR, read through the running server (with
SERVICE_ROLE_KEY) while \`npm start\` holds it.
`;

const defaultLimit = 100;

class UsageError extends Error {}

/** Runs one command; resolves with its exit code: 0 done, 1 failed (explained on `err`), 2 misused. */
export async function runBookings(args: string[], io: CliIo): Promise<number> {
  try {
    return await run(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\nSee \`npm run bookings -- --help\`.\n`);
      return 2;
    }
    const expected = [
      CliError,
      ConfigError,
      DatabaseRoleError,
      DatabaseUnavailableError,
      MigrationError,
    ];
    if (!expected.some((type) => error instanceof type)) throw error;
    io.err(`${(error as Error).message}\n`);
    return 1;
  }
}

async function run(args: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        since: { type: 'string' },
        limit: { type: 'string' },
        csv: { type: 'boolean' },
        json: { type: 'boolean' },
        'older-than': { type: 'string' },
        'dry-run': { type: 'boolean' },
        once: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    await io.out(usage);
    return 0;
  }
  const [command = 'list', ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`Unexpected argument: ${extra.join(' ')}`);
  const allowed: Record<string, string[]> = {
    list: ['since', 'limit', 'csv', 'json'],
    purge: ['older-than', 'dry-run'],
    notify: ['once'],
  };
  const options = allowed[command];
  if (!options) throw new UsageError(`Unknown command: ${command}`);
  const misplaced = Object.keys(values).filter((name) => !options.includes(name));
  if (misplaced.length > 0) {
    throw new UsageError(`--${misplaced[0]} does not apply to ${command}.`);
  }

  const settings = loadSettings(withDotEnv(io), io.cwd);
  const now = new Date();

  switch (command) {
    case 'purge': {
      const text = values['older-than'];
      if (text === undefined) throw new UsageError('purge needs --older-than, e.g. 12m.');
      const period = parsePeriod(text);
      if (!period) {
        throw new UsageError(
          `--older-than must be a number followed by d, w, m or y, e.g. 12m (got "${text}").`,
        );
      }
      return purge(
        io,
        settings,
        periodBefore(now, period),
        describePeriod(period),
        values['dry-run'],
      );
    }
    case 'notify':
      return notify(io, settings, values.once === true);
    default: {
      if (values.csv && values.json) throw new UsageError('Choose one of --csv and --json.');
      let since: Date | undefined;
      if (values.since !== undefined) {
        since = parseSince(values.since, now);
        if (!since) {
          throw new UsageError(
            `--since must be a period (7d, 2w, 6m, 1y), a date (2026-11-01) or a date and time with its offset (got "${values.since}").`,
          );
        }
      }
      let limit: number | undefined = defaultLimit;
      if (values.limit !== undefined) {
        if (values.limit === 'all') limit = undefined;
        else if (/^\d{1,9}$/.test(values.limit) && Number(values.limit) > 0) {
          limit = Number(values.limit);
        } else {
          throw new UsageError(
            `--limit must be a whole number above 0, or all (got "${values.limit}").`,
          );
        }
      }
      const format = values.csv ? 'csv' : values.json ? 'json' : 'table';
      return list(io, settings, { since, limit }, format);
    }
  }
}

/** Variables already set in the environment win over the file, as for the server. */
function withDotEnv(io: CliIo): Record<string, string | undefined> {
  const file = path.join(io.cwd, '.env');
  if (!existsSync(file)) return io.env;
  return { ...parseEnv(readFileSync(file, 'utf8')), ...io.env };
}

async function list(
  io: CliIo,
  settings: Settings,
  query: { since: Date | undefined; limit: number | undefined },
  format: 'table' | 'csv' | 'json',
): Promise<number> {
  const source = await openBookingsSource(settings.server);
  try {
    const records = await source.list(query);
    const failing = await source.failingNotifications();
    if (format === 'csv') await io.out(formatCsv(records));
    else if (format === 'json') await io.out(formatJson(records));
    else {
      await io.out(formatTable(records, failing));
      const scope = query.since ? ` since ${formatUkTimeLong(query.since)}` : '';
      const more =
        query.limit !== undefined && records.length === query.limit
          ? ` (the ${query.limit} most recent; --limit all shows every one)`
          : '';
      io.err(
        `${records.length} request${records.length === 1 ? '' : 's'}${scope}${more}, from ${source.description}.\n`,
      );
    }
    const warning = formatFailingWarning(failing);
    if (warning) io.err(`${warning}\n`);
    return 0;
  } finally {
    await source.close();
  }
}

async function purge(
  io: CliIo,
  settings: Settings,
  cutoff: Date,
  period: string,
  dryRun: boolean | undefined,
): Promise<number> {
  const source = await openBookingsSource(settings.server);
  try {
    const when = `older than ${period} (received before ${formatUkTimeLong(cutoff)})`;
    if (dryRun) {
      const count = await source.countBefore(cutoff);
      await io.out(`${count} booking request${count === 1 ? '' : 's'} ${when} would be deleted.\n`);
    } else {
      const count = await source.deleteBefore(cutoff);
      await io.out(`Deleted ${count} booking request${count === 1 ? '' : 's'} ${when}.\n`);
    }
    return 0;
  } finally {
    await source.close();
  }
}

async function notify(io: CliIo, settings: Settings, once: boolean): Promise<number> {
  if (!settings.notify) {
    throw new CliError(
      'No notification channel is configured: set SMTP_URL and NOTIFY_TO (and NOTIFY_FROM), or NOTIFY_WEBHOOK_URL.',
    );
  }
  const opened = await openDirect(settings.server);
  if (!opened) {
    throw new CliError(
      `A server is running on ${settings.server.dataDir}: it sends the notifications itself.`,
    );
  }
  try {
    await requireTable(opened.db, 'public.bookings');
    if (!(await createOutbox(opened.db).exists())) {
      throw new CliError(
        'The database has no notification outbox: apply supabase/migrations/20261123000000_booking_notifications.sql ' +
          '(`supabase db push` for a Supabase project, or start the server once).',
      );
    }
    const log = {
      info: (message: string) => void io.out(`${message}\n`),
      error: (message: string) => io.err(`${message}\n`),
    };
    const { notifier, channels } = createConfiguredNotifier(opened.db, settings.notify, log);
    const by = channels.map((channel) => channel.description).join(' and ');
    if (once) {
      const report = await notifier.runOnce();
      await notifier.stop();
      await io.out(
        `Sent ${report.sent} notification${report.sent === 1 ? '' : 's'} by ${by}` +
          (report.failed > 0 ? `; ${report.failed} failed and will be retried.\n` : '.\n'),
      );
      return report.failed > 0 ? 1 : 0;
    }
    await io.out(
      `Sending the notifications of ${opened.db.description} by ${by}; stop with Ctrl+C.\n`,
    );
    notifier.start();
    const signal = await io.untilStopped();
    await io.out(`Stopping after ${signal}.\n`);
    await notifier.stop();
    return 0;
  } finally {
    await opened.close();
  }
}
