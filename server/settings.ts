import { ConfigError, loadConfig, type ServerConfig } from './config.ts';
import { loadLimits, type LimitsConfig } from './limits/limits-config.ts';
import { loadNotifyConfig, type NotifyConfig } from './notifications/notify-config.ts';
import type { Period } from './retention/period.ts';
import { loadRetention } from './retention/retention.ts';

/** Everything read from the environment, by the server and by `npm run bookings`. */
export interface Settings {
  server: ServerConfig;
  /** Undefined when no notification channel is configured. */
  notify: NotifyConfig | undefined;
  /** RETENTION; undefined when requests are kept until deleted by hand. */
  retention: Period | undefined;
  limits: LimitsConfig;
}

type Env = Record<string, string | undefined>;

/** Reads every group of settings, reporting all their problems at once. */
export function loadSettings(env: Env = process.env, cwd: string = process.cwd()): Settings {
  const problems: string[] = [];
  const attempt = <T>(load: () => T): T | undefined => {
    try {
      return load();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
      return undefined;
    }
  };
  const server = attempt(() => loadConfig(env, cwd));
  const notify = attempt(() => loadNotifyConfig(env));
  const retention = attempt(() => loadRetention(env));
  const limits = attempt(() => loadLimits(env));
  if (problems.length > 0 || server === undefined || limits === undefined) {
    throw new ConfigError(problems);
  }
  return { server, notify, retention, limits };
}
