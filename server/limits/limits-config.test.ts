import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config.ts';
import { defaultLimits, loadLimits } from './limits-config.ts';

describe('the limits read from the environment', () => {
  it('leaves the database limits as stored and limits each address by default', () => {
    expect(loadLimits({})).toEqual({
      bookingLimits: {},
      rateLimitPerMinute: defaultLimits.rateLimitPerMinute,
      trustProxy: false,
      maxPendingRequests: defaultLimits.maxPendingRequests,
    });
  });

  it('reads every variable; 0 switches a limit off', () => {
    expect(
      loadLimits({
        BOOKING_LIMIT_PER_CLIENT_PER_HOUR: '8',
        BOOKING_LIMIT_PER_EMAIL_PER_HOUR: '5',
        BOOKING_LIMIT_SITE_PER_HOUR: '0',
        RATE_LIMIT_PER_MINUTE: '0',
        TRUST_PROXY: 'true',
        MAX_PENDING_REQUESTS: '64',
      }),
    ).toEqual({
      bookingLimits: { perClientPerHour: 8, perEmailPerHour: 5, sitePerHour: 0 },
      rateLimitPerMinute: 0,
      trustProxy: true,
      maxPendingRequests: 64,
    });
  });

  it('refuses the per-minute setting of earlier releases, naming what replaced it', () => {
    expect(() => loadLimits({ BOOKING_LIMIT_PER_MINUTE: '30' })).toThrow(
      /BOOKING_LIMIT_SITE_PER_HOUR/,
    );
  });

  it('reports every malformed value at once', () => {
    const attempt = () =>
      loadLimits({
        BOOKING_LIMIT_PER_EMAIL_PER_HOUR: 'three',
        RATE_LIMIT_PER_MINUTE: '-1',
        TRUST_PROXY: 'yes please',
        MAX_PENDING_REQUESTS: '0',
      });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(4);
      expect((error as ConfigError).problems[0]).toContain('BOOKING_LIMIT_PER_EMAIL_PER_HOUR');
    }
  });
});
