import { describe, expect, it } from 'vitest';
import { answerLink } from '../core/answer-link.ts';
import { practice } from '../content/practice.ts';
import type { BookingNotice } from './booking-notice.ts';
import { messageListLimit, waitingListCommand } from './message-lists.ts';
import { composeReminderPush, maxNtfyActions } from './ntfy-messages.ts';
import { composeReminder, describeDue, describeTimeLeft } from './reminder-message.ts';
import {
  sampleAnswerToken,
  sampleNotice,
  testSiteUrl,
} from '../../../../server/testing/notice-samples.ts';

/** SITE_URL of these tests: every link to the site must name it. */

/** What the reminder of waiting requests says, in the e-mail, the webhook and the push. */

const hour = 3_600_000;
const replyWithinMs = practice.replyWithinHours * hour;

const request = (id: string, createdAt: string, overrides: Partial<BookingNotice> = {}) =>
  sampleNotice({
    id,
    createdAt: new Date(createdAt),
    answerToken: sampleAnswerToken(id),
    ...overrides,
  });

const amina = request('5f0c2a8e-2f4b-4d0e-9a47-0a1b2c3d4e5f', '2026-07-01T17:40:00Z');
const yusuf = request('9a1b2c3d-0000-4000-8000-000000000002', '2026-07-01T18:10:00Z', {
  fullName: 'Yusuf <b>Ali</b>',
  phone: '+44 1634 123456',
  email: 'yusuf@example.com',
  instagram: 'yusuf.ali',
});

/** The reply-by time of `notice`, less `ms`. */
const before = (notice: BookingNotice, ms: number) =>
  new Date(notice.createdAt.getTime() + replyWithinMs - ms);

describe('composeReminder', () => {
  it.each([
    // Due 2 July 18:40 BST (17:40 UTC); reminded four hours before.
    ['four hours before it', 4 * hour, 'due at 18:40', '(4 h 00 min left)'],
    // As soon as it arrives (NOTIFY_REMINDER_HOURS=24): due on the next UK day.
    ['as soon as it arrives', replyWithinMs, 'due tomorrow at 18:40', '(24 h 00 min left)'],
    // Due, not late, at the reply-by time itself (NOTIFY_REMINDER_HOURS=0).
    ['at its reply-by time', 0, 'due at 18:40', '(due now)'],
  ])('says when a lone request reminded %s is due, in UK time', (_, ms, due, left) => {
    const reminder = composeReminder([amina], before(amina, ms), testSiteUrl);
    expect(reminder.subject).toBe(`A request waits for a reply; it is ${due}`);
    expect(reminder.text).toContain(left);
  });

  it('groups requests, the first due first, whatever order they came in', () => {
    const reminder = composeReminder([yusuf, amina], before(amina, 3 * hour), testSiteUrl);
    expect(reminder.subject).toBe('2 requests wait for a reply; the first is due at 18:40');
    expect(reminder.requests.map((notice) => notice.id)).toEqual([amina.id, yusuf.id]);
    expect(reminder.text.indexOf('Amina Khan')).toBeLessThan(reminder.text.indexOf('Yusuf'));
  });

  it('says how late the first is once its reply-by time has passed', () => {
    const reminder = composeReminder([amina, yusuf], before(amina, -(80 * 60_000)), testSiteUrl);
    expect(reminder.subject).toBe('2 requests wait for a reply; the first is 1 h 20 min late');
    expect(reminder.text).toContain('Reply by Thu 02 Jul 2026 18:40 (1 h 20 min late)');
    // The second is 30 minutes later: 50 minutes late.
    expect(reminder.text).toContain('Reply by Thu 02 Jul 2026 19:10 (50 min late)');
  });

  it.each([
    // Spring forward, 29 March 2026 01:00 UTC: due 02:30 UTC is 03:30 BST.
    ['2026-03-28T02:30:00Z', '2026-03-28T22:30:00Z', 'tomorrow at 03:30'],
    // Before the change: due 00:30 UTC on the 29th is 00:30 GMT.
    ['2026-03-28T00:30:00Z', '2026-03-28T20:30:00Z', 'tomorrow at 00:30'],
    // Fall back, 25 October 2026 01:00 UTC: due 01:30 UTC is 01:30 GMT…
    ['2026-10-24T01:30:00Z', '2026-10-24T23:30:00Z', 'at 01:30'],
    // …and due 00:30 UTC is 01:30 BST, the first of the two 01:30s.
    ['2026-10-24T00:30:00Z', '2026-10-24T23:00:00Z', 'at 01:30'],
  ])('a request of %s, reminded at %s, is due %s', (createdAt, now, due) => {
    const notice = request(amina.id, createdAt);
    expect(composeReminder([notice], new Date(now), testSiteUrl).subject).toBe(
      `A request waits for a reply; it is due ${due}`,
    );
  });

  it('lists each request with its reference, times, phone and links, what the visitor typed escaped in the HTML', () => {
    const { text, html } = composeReminder([amina, yusuf], before(amina, 3 * hour), testSiteUrl);
    expect(text).toContain('1. Amina Khan, ref 5F0C2A8E');
    expect(text).toContain('Reply by Thu 02 Jul 2026 18:40 (3 h 00 min left)');
    expect(text).toContain('Received Wed 01 Jul 2026 18:40');
    expect(text).toContain('Phone 07700 900123 (tel:07700900123)');
    expect(text).toContain(`Mark as answered: ${answerLink(testSiteUrl, amina.answerToken!)}`);
    // The visitor's preferred way first: Instagram for a handle.
    expect(text).toContain('Message on Instagram: https://ig.me/m/yusuf.ali');
    expect(text).toContain(
      `within ${practice.replyWithinHours} hours, by e-mail or Instagram message`,
    );
    expect(html).toContain('Yusuf &lt;b&gt;Ali&lt;/b&gt;');
    expect(html).not.toContain('<b>Ali</b>');
    expect(html).toContain('href="tel:07700900123"');
    expect(html).toContain(`href="${answerLink(testSiteUrl, yusuf.answerToken!)}"`);
    expect(html).toContain('3 h 00 min left');
  });

  it('leaves out "Mark as answered" where no token was given', () => {
    const { text, html } = composeReminder(
      [{ ...amina, answerToken: undefined }],
      before(amina, hour),
      testSiteUrl,
    );
    expect(text).not.toContain('Mark as answered:');
    expect(html).not.toContain('#answer=');
  });

  it('has one id for the same requests, in any order, and another for others', () => {
    const now = before(amina, hour);
    const id = composeReminder([amina, yusuf], now, testSiteUrl).id;
    expect(composeReminder([yusuf, amina], new Date(now.getTime() + hour), testSiteUrl).id).toBe(
      id,
    );
    expect(composeReminder([amina], now, testSiteUrl).id).not.toBe(id);
    expect(id).toMatch(/^[0-9a-f]{16}$/);
  });

  it('gives the webhook every request with its reply-by time', () => {
    const now = before(amina, hour);
    const reminder = composeReminder([amina, yusuf], now, testSiteUrl);
    expect(reminder.webhookBody).toMatchObject({
      type: 'practice.reminder',
      reminder: {
        id: reminder.id,
        created_at: now.toISOString(),
        count: 2,
        subject: reminder.subject,
        bookings: [
          { id: amina.id, reply_by: '2026-07-02T17:40:00.000Z', full_name: 'Amina Khan' },
          { id: yusuf.id, reply_by: '2026-07-02T18:10:00.000Z' },
        ],
      },
    });
  });

  it('lists the first few of a crowd one by one and counts the rest', () => {
    const crowd = Array.from({ length: messageListLimit + 3 }, (_, index) =>
      request(
        `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
        new Date(amina.createdAt.getTime() + index * 60_000).toISOString(),
        { fullName: `Visitor ${index}` },
      ),
    );
    const reminder = composeReminder(crowd, before(amina, hour), testSiteUrl);
    expect(reminder.subject).toBe(
      `${messageListLimit + 3} requests wait for a reply; the first is due at 18:40`,
    );
    expect(reminder.text).toContain(`${messageListLimit}. Visitor ${messageListLimit - 1},`);
    expect(reminder.text).not.toContain(`Visitor ${messageListLimit},`);
    expect(reminder.text).toContain(
      `\u2026and 3 more, not listed here: see them all with ${waitingListCommand}`,
    );
    expect(reminder.html).toContain('3 more, not listed here');
    expect(reminder.html).not.toContain(`Visitor ${messageListLimit}<`);
    // The webhook has them all.
    expect(reminder.webhookBody).toMatchObject({ reminder: { count: messageListLimit + 3 } });
  });

  it('refuses to remind of nothing', () => {
    expect(() => composeReminder([], new Date(), testSiteUrl)).toThrow();
  });
});

describe('describeDue and describeTimeLeft', () => {
  it('gives the full date beyond tomorrow, and minutes left or late', () => {
    const now = new Date('2026-07-01T08:00:00Z');
    expect(describeDue(new Date('2026-07-03T08:00:00Z'), now)).toBe('on Fri 03 Jul 2026 09:00');
    expect(describeTimeLeft(new Date('2026-07-01T08:45:30Z'), now)).toBe('45 min left');
    expect(describeTimeLeft(new Date('2026-07-01T07:15:00Z'), now)).toBe('45 min late');
    expect(describeTimeLeft(new Date('2026-07-01T07:59:30Z'), now)).toBe('due now');
  });
});

describe('composeReminderPush', () => {
  it('pushes a lone request with the ways to answer it and "Mark as answered"', () => {
    const push = composeReminderPush(composeReminder([yusuf], before(yusuf, hour), testSiteUrl));
    expect(push.title).toBe('A request waits for a reply; it is due at 19:10');
    expect(push.priority).toBe(4);
    expect(push.message).toBe(
      'Yusuf <b>Ali</b>, ref 9A1B2C3D: reply by Thu 02 Jul 2026 19:10 (1 h 00 min left)',
    );
    expect(push.actions.length).toBeLessThanOrEqual(maxNtfyActions);
    expect(push.actions.map((action) => action.label)).toEqual([
      'Message on Instagram',
      'Call',
      'Mark as answered',
    ]);
    expect(push.actions.at(-1)?.url).toBe(answerLink(testSiteUrl, yusuf.answerToken!));
  });

  it('pushes several requests with one line each and the first one\u2019s "Mark as answered"', () => {
    const push = composeReminderPush(
      composeReminder([amina, yusuf], before(amina, hour), testSiteUrl),
    );
    expect(push.title).toBe('2 requests wait for a reply; the first is due at 18:40');
    expect(push.message.split('\n')).toEqual([
      'Amina Khan, ref 5F0C2A8E: reply by Thu 02 Jul 2026 18:40 (1 h 00 min left)',
      'Yusuf <b>Ali</b>, ref 9A1B2C3D: reply by Thu 02 Jul 2026 19:10 (1 h 30 min left)',
    ]);
    expect(push.actions).toEqual([
      {
        action: 'view',
        label: 'Mark 5F0C2A8E as answered',
        url: answerLink(testSiteUrl, amina.answerToken!),
        clear: false,
      },
    ]);
  });
});
