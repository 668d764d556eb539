import { ConfigError, type Env } from '../../supabase/functions/_shared/config.ts';
import type { BookingLimits } from '../db/booking-limits.ts';
import { bookingLimitSettings, serverLimitSettings, type LimitSetting } from './limit-settings.ts';
import { readTrustProxySetting } from './trusted-proxies.ts';

/** The server's protections against floods; read from the environment. */
export type LimitsConfig = ReturnType<typeof loadLimits>;

/** The server's own limits when their settings are unset. */
export const defaultLimits = {
  rateLimitPerMinute: serverLimitSettings.rateLimitPerMinute.default,
  maxPendingRequests: serverLimitSettings.maxPendingRequests.default,
};

/**
 * The settings that lift every limit on bookings, for benchmarks and tests
 * that send many from one address within a minute.
 */
export const everyLimitLifted: Record<string, string> = Object.fromEntries(
  [serverLimitSettings.rateLimitPerMinute, ...Object.values(bookingLimitSettings)].map(
    ({ setting }) => [setting, '0'],
  ),
);

export function loadLimits(env: Env = process.env) {
  const problems: string[] = [];
  /** The setting's whole number; undefined when unset (or refused, with its problem). */
  const count = ({ setting, min, max }: LimitSetting) => {
    const text = env[setting]?.trim();
    if (!text) return undefined;
    const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!(value >= min && value <= max)) {
      problems.push(`${setting} must be a whole number from ${min} to ${max} (got "${text}").`);
      return undefined;
    }
    return value;
  };
  const bookingLimits: Partial<BookingLimits> = {};
  for (const [key, limit] of Object.entries(bookingLimitSettings)) {
    const value = count(limit);
    if (value !== undefined) bookingLimits[key as keyof BookingLimits] = value;
  }
  const rateLimitPerMinute = count(serverLimitSettings.rateLimitPerMinute);
  const maxPendingRequests = count(serverLimitSettings.maxPendingRequests);

  const trustProxy = readTrustProxySetting(env.TRUST_PROXY);
  problems.push(...trustProxy.problems);
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    /**
     * BOOKING_LIMIT_PER_CLIENT_PER_HOUR, BOOKING_LIMIT_PER_EMAIL_PER_HOUR and
     * BOOKING_LIMIT_SITE_PER_HOUR, written into the database at start; a limit
     * left unset keeps the database's value.
     */
    bookingLimits,
    /**
     * RATE_LIMIT_PER_MINUTE: API requests one client network may make per
     * minute; 0 = no limit (nor on the requests it has in progress at once).
     */
    rateLimitPerMinute: rateLimitPerMinute ?? defaultLimits.rateLimitPerMinute,
    /**
     * TRUST_PROXY: the reverse proxies (addresses, CIDR ranges, `loopback`)
     * whose X-Forwarded-For names the client; empty: none, every client is
     * the address it connects from.
     */
    trustProxy: trustProxy.entries,
    /**
     * MAX_PENDING_REQUESTS: API requests handled at once, bodies received;
     * more are refused with 503 rather than queued.
     */
    maxPendingRequests: maxPendingRequests ?? defaultLimits.maxPendingRequests,
  };
}
