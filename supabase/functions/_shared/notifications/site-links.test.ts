import { describe, expect, it } from 'vitest';
import { practice } from '../content/practice.ts';
import { composeBookingEmail } from './booking-notice.ts';
import { composeDailySummary } from './daily-summary.ts';
import { composeFloodDigest } from './flood-digest.ts';
import { loadNotifyConfig } from './notify-config.ts';
import {
  composeBookingPush,
  composeDailySummaryPush,
  composeReminderPush,
} from './ntfy-messages.ts';
import { composeReminder } from './reminder-message.ts';
import { sampleNotice, withAnswerToken } from '../../../../server/testing/notice-samples.ts';

/** SITE_URL reaches every link to the site in every message, from the setting to the text. */

const { siteUrl } = loadNotifyConfig({
  NOTIFY_WEBHOOK_URL: 'https://hooks.test/booking',
  SITE_URL: 'https://www.clinic.test',
})!;

const notice = withAnswerToken(sampleNotice({ phone: '07700 900456' }));

/** Every web address in `text` that is not a way of answering the visitor (WhatsApp, Instagram). */
function siteLinks(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s"'<>)]+/g)]
    .map(([link]) => link)
    .filter((link) => !/^https:\/\/(wa\.me|ig\.me|instagram\.com)\//.test(link));
}

describe('SITE_URL', () => {
  it('is read with one trailing slash', () => {
    expect(siteUrl).toBe('https://www.clinic.test/');
  });

  it('is every link to the site in the notice, the reminder, the digest, the summary and the pushes', () => {
    const reminder = composeReminder([notice], notice.createdAt, siteUrl);
    const email = composeBookingEmail(notice, siteUrl);
    const digest = composeFloodDigest({
      id: '1',
      createdAt: notice.createdAt,
      requests: [notice],
      threshold: 20,
      siteUrl,
    });
    const summary = composeDailySummary({
      day: '2026-07-02',
      now: new Date('2026-07-02T06:00:00Z'),
      at: { hour: 7, minute: 0 },
      requests: [
        {
          booking: notice,
          notification: { state: 'sent', attempts: 1, lastError: null, reachedBy: ['email'] },
        },
      ],
      failing: [],
      waiting: [notice],
      replies: [],
      retention: { kind: 'purged', period: { count: 12, unit: 'mo' }, deleted: 0 },
      siteUrl,
      emailed: true,
    });
    const messages = {
      notice: email.text + email.html,
      reminder: reminder.text + reminder.html,
      digest: digest.text + digest.html,
      summary: summary.text,
      'booking push': JSON.stringify(composeBookingPush(notice, siteUrl)),
      'summary push': JSON.stringify(composeDailySummaryPush(summary)),
      'reminder push': JSON.stringify(composeReminderPush(reminder)),
    };
    for (const [name, text] of Object.entries(messages)) {
      expect(text, name).not.toContain(new URL(practice.url).hostname);
      for (const link of siteLinks(text))
        expect(link, name).toMatch(/^https:\/\/www\.clinic\.test\//);
    }
    for (const name of ['notice', 'reminder', 'digest', 'reminder push'] as const) {
      expect(siteLinks(messages[name]), name).toContain(
        `https://www.clinic.test/#answer=${notice.answerToken}`,
      );
    }
  });
});
