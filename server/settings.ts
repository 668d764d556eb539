import {
  collectConfigProblems,
  ConfigError,
  loadConfig,
  type ServerConfig,
} from '../supabase/functions/_shared/config.ts';
import { loadLimits, type LimitsConfig } from './limits/limits-config.ts';
import {
  loadDailySchedule,
  type DailySchedule,
} from '../supabase/functions/_shared/notifications/daily-schedule.ts';
import {
  loadNotifyConfig,
  type NotifyConfig,
} from '../supabase/functions/_shared/notifications/notify-config.ts';
import type { Period } from '../supabase/functions/_shared/retention/period.ts';
import { loadRetention } from '../supabase/functions/_shared/retention/retention.ts';

/** Everything read from the environment, by the server and by `npm run bookings`. */
export interface Settings {
  server: ServerConfig;
  /** Undefined when no notification channel is configured. */
  notify: NotifyConfig | undefined;
  /** RETENTION (the privacy notice's period unless set); undefined when off. */
  retention: Period | undefined;
  /** When the daily run (purge and summary) happens, and whether the summary is sent. */
  daily: DailySchedule;
  limits: LimitsConfig;
}

type Env = Record<string, string | undefined>;

/** Reads every group of settings, reporting all their problems at once. */
export function loadSettings(env: Env = process.env, cwd: string = process.cwd()): Settings {
  const { problems, attempt } = collectConfigProblems();
  const server = attempt(() => loadConfig(env, cwd));
  const notify = attempt(() => loadNotifyConfig(env));
  const retention = attempt(() => loadRetention(env));
  const daily = attempt(() => loadDailySchedule(env));
  const limits = attempt(() => loadLimits(env));
  if (problems.length > 0 || server === undefined || limits === undefined || daily === undefined) {
    throw new ConfigError(problems);
  }
  return { server, notify, retention, daily, limits };
}
