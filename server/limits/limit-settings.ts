/**
 * Every limit the deployer can set, in one table: its setting (the
 * environment variable), its key in the code, its default and its range, and
 * for the limits the database keeps, its column of app_private.booking_limits.
 * The parsers (limits-config.ts), the database writes (db/booking-limits.ts)
 * read it; a test holds the columns' SQL defaults, `.env.example` and
 * docs/configuration.md to it.
 */

export interface LimitSetting {
  setting: string;
  default: number;
  min: number;
  max: number;
}

/** The limits the database enforces on booking requests, for both deployments. */
export const bookingLimitSettings = {
  /** Requests one client network (an IPv4 address, an IPv6 /56) may send in an hour. */
  perClientPerHour: {
    setting: 'BOOKING_LIMIT_PER_CLIENT_PER_HOUR',
    column: 'per_client_per_hour',
    default: 5,
    min: 0,
    max: 10_000,
  },
  /** Requests for one e-mail address from one client network in an hour. */
  perEmailPerHour: {
    setting: 'BOOKING_LIMIT_PER_EMAIL_PER_HOUR',
    column: 'per_email_per_hour',
    default: 3,
    min: 0,
    max: 10_000,
  },
  /** Requests the whole site takes in an hour before each new one must carry a proof of work. */
  sitePerHour: {
    setting: 'BOOKING_LIMIT_SITE_PER_HOUR',
    column: 'site_per_hour',
    default: 20,
    min: 0,
    max: 1_000_000,
  },
} as const satisfies Record<string, LimitSetting & { column: string }>;

/** The limits the project's server enforces on its HTTP API. */
export const serverLimitSettings = {
  rateLimitPerMinute: { setting: 'RATE_LIMIT_PER_MINUTE', default: 30, min: 0, max: 1_000_000 },
  maxPendingRequests: { setting: 'MAX_PENDING_REQUESTS', default: 256, min: 1, max: 100_000 },
} as const satisfies Record<string, LimitSetting>;
