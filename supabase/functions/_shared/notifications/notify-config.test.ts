import { describe, expect, it } from 'vitest';
import { practice } from '../content/practice.ts';
import { loadNotifyConfig } from './notify-config.ts';

describe('loadNotifyConfig', () => {
  it('is off when no channel is configured', () => {
    expect(loadNotifyConfig({})).toBeUndefined();
    expect(loadNotifyConfig({ SMTP_URL: ' ', NOTIFY_WEBHOOK_URL: '' })).toBeUndefined();
  });

  it('reads the e-mail and webhook settings with their defaults', () => {
    expect(
      loadNotifyConfig({
        SMTP_URL: 'smtp://user:pa%40ss@smtp.example.com:587',
        NOTIFY_TO: 'one@example.com, two@example.com',
        NOTIFY_WEBHOOK_URL: 'https://hooks.example.com/booking?token=x',
      }),
    ).toEqual({
      email: {
        smtpUrl: 'smtp://user:pa%40ss@smtp.example.com:587',
        to: ['one@example.com', 'two@example.com'],
        from: 'one@example.com',
      },
      webhookUrl: 'https://hooks.example.com/booking?token=x',
      ntfy: undefined,
      pollIntervalMs: 5_000,
      retryBaseMs: 30_000,
      retryMaxMs: 600_000,
      alertAfterMs: 3_600_000,
      remindBeforeReplyByMs: 4 * 3_600_000,
      acknowledge: true,
      siteUrl: practice.url,
    });
  });

  describe('NOTIFY_REMINDER_HOURS', () => {
    const webhook = { NOTIFY_WEBHOOK_URL: 'https://x.example' };
    const hours = (value: string | undefined) =>
      loadNotifyConfig({ ...webhook, NOTIFY_REMINDER_HOURS: value })?.remindBeforeReplyByMs;

    it.each([
      // Four hours before the reply-by time by default.
      [undefined, 4 * 3_600_000],
      [' ', 4 * 3_600_000],
      ['0', 0],
      ['0.5', 30 * 60_000],
      ['2.25', 2.25 * 3_600_000],
      [String(practice.replyWithinHours), practice.replyWithinHours * 3_600_000],
    ])('reads %o hours', (value, ms) => {
      expect(hours(value)).toBe(ms);
    });

    it.each([String(practice.replyWithinHours + 1), '4h', '-1', '.5', 'four', '1e1'])(
      'refuses %s, saying what it expects',
      (value) => {
        expect(() => hours(value)).toThrow(
          new RegExp(
            `NOTIFY_REMINDER_HOURS must be a number of hours from 0 to ${practice.replyWithinHours}.*got "${value.replace('.', '\\.')}"`,
          ),
        );
      },
    );
  });

  it('counts ntfy alone as a channel, with or without a token', () => {
    const topicUrl = 'https://ntfy.sh/hijama-3f9c1e7a5b2d4c6e';
    expect(loadNotifyConfig({ NOTIFY_NTFY_URL: topicUrl })).toMatchObject({
      email: undefined,
      webhookUrl: undefined,
      ntfy: { topicUrl, token: undefined },
    });
    expect(
      loadNotifyConfig({
        NOTIFY_NTFY_URL: 'https://push.example.com/alerts',
        NOTIFY_NTFY_TOKEN: ' tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2 ',
      })?.ntfy,
    ).toEqual({
      topicUrl: 'https://push.example.com/alerts',
      token: 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2',
    });
  });

  it('never quotes the ntfy topic or token back in its messages: both are secrets', () => {
    for (const env of [
      { NOTIFY_NTFY_URL: 'https://ntfy.sh/secret-topic?x=1' },
      { NOTIFY_NTFY_URL: 'https://ntfy.sh/secret', NOTIFY_NTFY_TOKEN: 'secret token' },
    ]) {
      expect(() => loadNotifyConfig(env)).toThrow(/NOTIFY_NTFY/);
      expect(() => loadNotifyConfig(env)).not.toThrow(/secret/);
    }
  });

  it('takes a sender with a name, fractional intervals and how long a notification may fail before the practice is told', () => {
    const config = loadNotifyConfig({
      SMTP_URL: 'smtps://smtp.example.com',
      NOTIFY_TO: 'practice@example.com',
      NOTIFY_FROM: 'Rochester Hijama <bookings@example.com>',
      NOTIFY_POLL_SECONDS: '0.5',
      NOTIFY_RETRY_SECONDS: '2',
      NOTIFY_RETRY_MAX_SECONDS: '60',
      NOTIFY_ALERT_AFTER_MINUTES: '90',
    });
    expect(config?.email?.from).toBe('Rochester Hijama <bookings@example.com>');
    expect(config).toMatchObject({
      pollIntervalMs: 500,
      retryBaseMs: 2_000,
      retryMaxMs: 60_000,
      alertAfterMs: 90 * 60_000,
    });
  });

  it.each([
    [{ SMTP_URL: 'smtp.example.com', NOTIFY_TO: 'a@b.co' }, /SMTP_URL must look like smtp:\/\//],
    [{ SMTP_URL: 'smtp://smtp.example.com' }, /NOTIFY_TO must name the address/],
    [{ NOTIFY_TO: 'a@b.co' }, /NOTIFY_TO and NOTIFY_FROM need SMTP_URL/],
    [{ SMTP_URL: 'smtp://h', NOTIFY_TO: 'not an address' }, /NOTIFY_TO must be an e-mail address/],
    [
      { SMTP_URL: 'smtp://h', NOTIFY_TO: 'a@b.co', NOTIFY_FROM: 'x\r\nBcc: y@z.co' },
      /NOTIFY_FROM must be an e-mail address/,
    ],
    [{ NOTIFY_WEBHOOK_URL: 'ftp://x' }, /NOTIFY_WEBHOOK_URL must be an https:\/\//],
    [{ NOTIFY_WEBHOOK_URL: 'https://x', NOTIFY_POLL_SECONDS: '0' }, /NOTIFY_POLL_SECONDS must be/],
    [
      {
        NOTIFY_WEBHOOK_URL: 'https://x',
        NOTIFY_RETRY_SECONDS: '60',
        NOTIFY_RETRY_MAX_SECONDS: '10',
      },
      /NOTIFY_RETRY_MAX_SECONDS must not be below/,
    ],
    [
      { NOTIFY_WEBHOOK_URL: 'https://x', NOTIFY_ALERT_AFTER_MINUTES: 'an hour' },
      /NOTIFY_ALERT_AFTER_MINUTES must be a number of minutes above 0 and at most 10080 \(got "an hour"\)/,
    ],
    [
      { NOTIFY_NTFY_URL: 'ntfy.sh/hijama-3f9c1e7a5b2d4c6e' },
      /NOTIFY_NTFY_URL must be the address of an ntfy topic, e\.g\. https:\/\/ntfy\.sh\/<topic>/,
    ],
    [
      { NOTIFY_NTFY_URL: 'https://ntfy.sh/clinic' },
      /without NOTIFY_NTFY_TOKEN, anyone who knows the topic reads the pushes, so its name must be at least 16 random characters/,
    ],
    [
      { NOTIFY_NTFY_TOKEN: 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2' },
      /NOTIFY_NTFY_TOKEN needs NOTIFY_NTFY_URL/,
    ],
    [
      { NOTIFY_NTFY_URL: 'https://ntfy.sh/clinic', NOTIFY_NTFY_TOKEN: 'tk_a b' },
      /NOTIFY_NTFY_TOKEN must be an access token of the ntfy server \(tk_…\), without spaces/,
    ],
    [
      { NOTIFY_WEBHOOK_URL: 'https://x', SITE_URL: 'www.clinic.test' },
      /SITE_URL must be the site's address/,
    ],
    [
      { NOTIFY_WEBHOOK_URL: 'https://x', SITE_URL: 'https://www.clinic.test/index.html' },
      /SITE_URL must be the address of the site itself, without a path/,
    ],
    [
      { NOTIFY_WEBHOOK_URL: 'https://x', NOTIFY_ACKNOWLEDGE: 'on' },
      /NOTIFY_ACKNOWLEDGE=on needs SMTP_URL and NOTIFY_TO/,
    ],
    [
      { SMTP_URL: 'smtp://h', NOTIFY_TO: 'a@b.co', NOTIFY_ACKNOWLEDGE: 'maybe' },
      /NOTIFY_ACKNOWLEDGE must be on or off: .* \(got "maybe"\)/,
    ],
  ])('refuses %o with a clear message', (env, message) => {
    expect(() => loadNotifyConfig(env)).toThrow(message);
  });
});

describe('NOTIFY_ACKNOWLEDGE', () => {
  const smtp = { SMTP_URL: 'smtp://smtp.example.com', NOTIFY_TO: 'practice@example.com' };
  const webhook = { NOTIFY_WEBHOOK_URL: 'https://hooks.example.com/x' };

  it.each([
    ['on by default when e-mail is configured', smtp, true],
    ['off without e-mail, with only a webhook', webhook, false],
    ['switched off by "off"', { ...smtp, NOTIFY_ACKNOWLEDGE: 'off' }, false],
    ['switched off by "OFF"', { ...smtp, NOTIFY_ACKNOWLEDGE: 'OFF' }, false],
    ['switched off by " off "', { ...smtp, NOTIFY_ACKNOWLEDGE: ' off ' }, false],
    ['on when said so with e-mail configured', { ...smtp, NOTIFY_ACKNOWLEDGE: 'on' }, true],
    ['switched off by "false"', { ...smtp, NOTIFY_ACKNOWLEDGE: 'false' }, false],
    ['switched off by "No"', { ...smtp, NOTIFY_ACKNOWLEDGE: 'No' }, false],
    ['switched off by "0"', { ...smtp, NOTIFY_ACKNOWLEDGE: '0' }, false],
    ['on when said "yes"', { ...smtp, NOTIFY_ACKNOWLEDGE: 'yes' }, true],
  ])('is %s', (_, env, on) => {
    expect(loadNotifyConfig(env)?.acknowledge).toBe(on);
  });
});
