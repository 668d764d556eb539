import { existsSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import {
  collectConfigProblems,
  ConfigError,
  loadConfig,
  type Env,
} from '../supabase/functions/_shared/config.ts';
import { loadLimits } from './limits/limits-config.ts';
import { loadDailySchedule } from '../supabase/functions/_shared/notifications/daily-schedule.ts';
import { loadNotifyConfig } from '../supabase/functions/_shared/notifications/notify-config.ts';
import { editDistance } from './cli/suggestions.ts';
import { loadRetention } from '../supabase/functions/_shared/retention/retention.ts';

const setUpAsDeployMdSays = 'on a server set up as docs/deploy.md says, in /etc/hijama/hijama.env';

/** Where a setting is set, for the messages that say to change one. */
export const inTheSettings = `in .env (${setUpAsDeployMdSays})`;

/**
 * The settings of the `.env` file in `dir`, if there is one (the server and
 * the command let variables already set win over them). One that exists but
 * cannot be read is refused plainly: a root-owned 0600 .env beside a service
 * that runs as another user gave "no such file" at each start.
 */
export function readDotEnv(dir: string): Record<string, string> {
  const file = path.join(dir, '.env');
  if (!existsSync(file)) return {};
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EACCES') throw error;
    throw new ConfigError([
      `${path.resolve(file)} exists, but ${userInfo().username}, who runs this, cannot read it: give it to that user (chmod 600 keeps it theirs alone), ` +
        `or remove it and set the settings in the environment (${setUpAsDeployMdSays}).`,
    ]);
  }
  return parseEnv(text) as Record<string, string>;
}

/** Everything read from the environment, by the server and by `npm run bookings`. */
export type Settings = ReturnType<typeof loadSettings>;

/** Reads every group of settings, reporting all their problems at once. */
export function loadSettings(env: Env = process.env, cwd: string = process.cwd()) {
  const { problems, attempt } = collectConfigProblems();
  const server = attempt(() => loadConfig(env, cwd));
  // Undefined when no notification channel is configured.
  const notify = attempt(() => loadNotifyConfig(env));
  // RETENTION (the privacy notice's period unless set); undefined when off.
  const retention = attempt(() => loadRetention(env));
  // When the daily run (purge and summary) happens, and whether the summary is sent.
  const daily = attempt(() => loadDailySchedule(env));
  const limits = attempt(() => loadLimits(env));
  if (problems.length > 0 || server === undefined || limits === undefined || daily === undefined) {
    throw new ConfigError(problems);
  }
  return { server, notify, retention, daily, limits };
}

/**
 * Every setting of docs/configuration.md, read by the server, the command, the
 * Edge Function, the build or the tests: a name close to one of them is a typing slip.
 */
const settingNames = [
  'ANON_KEY',
  'BENCH_DATABASE_URL',
  'BOOKING_LIMIT_PER_CLIENT_PER_HOUR',
  'BOOKING_LIMIT_PER_EMAIL_PER_HOUR',
  'BOOKING_LIMIT_SITE_PER_HOUR',
  'CHROMIUM_PATH',
  'DATABASE_URL',
  'DATA_DIR',
  'DIST_DIR',
  'E2E_BASE_URL',
  'E2E_PORT',
  'HOST',
  'MAX_PENDING_REQUESTS',
  'NOTIFY_ACKNOWLEDGE',
  'NOTIFY_ALERT_AFTER_MINUTES',
  'NOTIFY_DAILY_SUMMARY_AT',
  'NOTIFY_FROM',
  'NOTIFY_FUNCTION_SECRET',
  'NOTIFY_NTFY_TOKEN',
  'NOTIFY_NTFY_URL',
  'NOTIFY_POLL_SECONDS',
  'NOTIFY_REMINDER_HOURS',
  'NOTIFY_RETRY_MAX_SECONDS',
  'NOTIFY_RETRY_SECONDS',
  'NOTIFY_TO',
  'NOTIFY_WEBHOOK_URL',
  'PORT',
  'RATE_LIMIT_PER_MINUTE',
  'RETENTION',
  'SITE_URL',
  'SMTP_URL',
  'SUPABASE_DB_URL',
  'SUPABASE_STACK_DIR',
  'TEST_DATABASE_URL',
  'TRUST_PROXY',
  'VITE_SUPABASE_ANON_KEY',
  'VITE_SUPABASE_URL',
] as const;

/** Beginnings only this project's settings have: a name with one that is not a setting is a wrong one. */
const ownPrefixes = /^(NOTIFY_|SMTP_|BOOKING_LIMIT_|RETENTION)/;

/** Set by others with such a beginning: systemd's (a unit of Type=notify, a container's runtime). */
const othersSettings = new Set(['NOTIFY_SOCKET']);

/**
 * One warning for each variable that is set but ignored: one that is not a
 * setting but is spelt close to one (`SMTP_ULR`, `RETENTON`), or begins as
 * only ours do (`NOTIFY_ACKNOWLEDGEMENT`, `SMTP_HOST`), so the setting meant
 * keeps its default; and a setting an earlier release read. Other beginnings
 * do not count: the environment holds other programs' variables (`TEST`,
 * `HOME`), which must not be mistaken for ours.
 */
export function ignoredSettings(env: Env): string[] {
  const known = new Set<string>([
    ...settingNames,
    ...Object.keys(retiredSettings),
    ...othersSettings,
  ]);
  const misspelt = Object.keys(env)
    .filter((name) => !known.has(name) && /^[A-Z][A-Z0-9_]*$/.test(name))
    .flatMap((name) => {
      const allowed = Math.min(2, Math.max(1, Math.floor(name.length / 4)));
      const meant = settingNames.find((setting) => editDistance(name, setting) <= allowed);
      if (meant !== undefined)
        return [`Warning: ${name} is not a setting, so it is ignored. Did you mean ${meant}?`];
      return ownPrefixes.test(name)
        ? [
            `Warning: ${name} is not a setting, so it is ignored: docs/configuration.md lists every one.`,
          ]
        : [];
    });
  const retired = Object.entries(retiredSettings)
    .filter(([name]) => (env[name]?.trim() ?? '') !== '')
    .map(([name, instead]) => `Warning: ${name} is no longer used; ${instead}`);
  return [...misspelt, ...retired];
}

/** Settings an earlier release read and this one ignores, with what to do instead. */
const retiredSettings: Record<string, string> = {
  SERVICE_ROLE_KEY:
    'nothing reads booking requests over HTTP any more: `npx hijama list` reads them by SQL. Remove it from the environment.',
};
