import { describe, expect, it } from 'vitest';
import {
  composeBookingEmail,
  composeWebhookBody,
  noticeFromRow,
  replyActions,
  replyBy,
} from './booking-notice.ts';
import { escapeHtml } from './email-html.ts';
import {
  sampleAnswerToken,
  sampleNotice,
  testSiteUrl,
} from '../../../../server/testing/notice-samples.ts';
import { practice } from '../content/practice.ts';

/** SITE_URL of these tests: every link to the site must name it. */

const { replyWithinHours } = practice;

const notice = sampleNotice({ phone: '+44 (0) 1634 123 456', instagram: 'amina.k' });

const token = sampleAnswerToken(notice.id);

/** The drafted reply: replyDraft of the content file (visitor-emails.ts), its lines CRLF, for this notice. */
const replyMailto =
  'mailto:amina@example.com?subject=Your%20booking%20request%20at%20Rochester%20Hijama%20%28ref.%205F0C2A8E%29' +
  '&body=Hello%20Amina%20Khan%2C%0D%0A%0D%0AThank%20you%20for%20your%20booking%20request%20at%20Rochester%20Hijama%20%28ref.%205F0C2A8E%29.%20Which%20day%20and%20time%20would%20suit%20you%20for%20your%20session%3F%0D%0A%0D%0AKind%20regards%2C%0D%0ARochester%20Hijama';

describe('escapeHtml', () => {
  it('escapes what HTML would interpret and drops control characters', () => {
    expect(escapeHtml(`<a href='x'>"Tom" & Jerry</a>\r\n`)).toBe(
      '&lt;a href=&#39;x&#39;&gt;&quot;Tom&quot; &amp; Jerry&lt;/a&gt;  ',
    );
  });
});

describe('composeBookingEmail', () => {
  it('writes every field, the reply-by time and the reference as plain text and as HTML', () => {
    const email = composeBookingEmail({ ...notice, answerToken: token }, testSiteUrl);
    expect(email.subject).toBe('Booking request from Amina Khan');
    expect(email.replyTo).toEqual({ name: 'Amina Khan', address: 'amina@example.com' });
    expect(email.text).toBe(
      [
        'New booking request from Amina Khan',
        '',
        'Reply by:   Thursday 2 July 2026, 14:05 BST',
        'Reference:  5F0C2A8E',
        '',
        'Amina Khan prefers a reply by Instagram message (@amina.k).',
        '',
        'Answer in one tap:',
        'Message on Instagram: https://ig.me/m/amina.k',
        'Open Instagram profile: https://instagram.com/amina.k',
        `Reply by e-mail: ${replyMailto}`,
        'Call: tel:+441634123456',
        '',
        'Once you have answered:',
        `Mark as answered: ${testSiteUrl}#answer=${token}`,
        '',
        'Name:       Amina Khan',
        'Phone:      +44 (0) 1634 123 456',
        'E-mail:     amina@example.com',
        'Instagram:  @amina.k (https://instagram.com/amina.k)',
        'Received:   Wednesday 1 July 2026, 14:05 BST',
        '',
        `The site promises a reply within ${replyWithinHours} hours, by e-mail or Instagram message.`,
        'Booking id: 5f0c2a8e-2f4b-4d0e-9a47-0a1b2c3d4e5f',
        '',
      ].join('\n'),
    );
    expect(email.html).toContain('<a href="tel:+441634123456">+44 (0) 1634 123 456</a>');
    expect(email.html).toContain('<a href="https://instagram.com/amina.k">@amina.k</a>');
    expect(email.html).toContain('Wednesday 1 July 2026, 14:05 BST');
    expect(email.html).toContain('Thursday 2 July 2026, 14:05 BST');
    expect(email.html).toContain('5F0C2A8E');
    expect(email.html).toContain(`<a href="${testSiteUrl}#answer=${token}" style="display:block`);
    expect(email.html).toContain('>Mark as answered</a>');
  });

  it('offers no "Mark as answered" without a token', () => {
    const email = composeBookingEmail(notice, testSiteUrl);
    expect(email.text).not.toContain('Mark as answered');
    expect(email.text).not.toContain('Once you have answered');
    expect(email.html).not.toContain('Mark as answered');
  });

  it('shows an Instagram profile address, stored before the rule reduced it, as its user name once', () => {
    // The forms such an address takes are normaliseInstagram's (booking-rules.test.ts).
    const stored = 'https://www.instagram.com/Amina.K/';
    const email = composeBookingEmail({ ...notice, instagram: stored }, testSiteUrl);
    expect(email.text).toContain('Instagram:  @amina.k (https://instagram.com/amina.k)\n');
    expect(email.text).toContain('prefers a reply by Instagram message (@amina.k).');
    expect(email.html).toContain('<a href="https://instagram.com/amina.k">@amina.k</a>');
    expect(email.text).not.toContain(stored);
    expect(email.html).not.toContain(stored);
  });

  it('offers the same actions, in the same order, in both parts', () => {
    const email = composeBookingEmail({ ...notice, phone: '07700 900123' }, testSiteUrl);
    const textLinks = [...email.text.matchAll(/^([^:\n]+): ((?:tel|sms|mailto|https):\S+)$/gm)].map(
      ([, label, href]) => ({ label, href }),
    );
    const htmlLinks = [
      ...email.html.matchAll(/<a href="([^"]+)" style="display:block[^"]*">([^<]+)<\/a>/g),
    ].map(([, href, label]) => ({ label, href: href!.replaceAll('&amp;', '&') }));
    const expected = [
      { label: 'Message on Instagram', href: 'https://ig.me/m/amina.k' },
      { label: 'Open Instagram profile', href: 'https://instagram.com/amina.k' },
      { label: 'Reply by e-mail', href: replyMailto },
      { label: 'Call', href: 'tel:07700900123' },
      { label: 'WhatsApp', href: 'https://wa.me/447700900123' },
      { label: 'Text message (SMS)', href: 'sms:07700900123' },
    ];
    expect(textLinks).toEqual(expected);
    expect(htmlLinks).toEqual(expected);
    expect(replyActions({ ...notice, phone: '07700 900123' })).toEqual(expected);
  });

  it('puts the e-mail first and says nothing of Instagram when no handle was given', () => {
    const email = composeBookingEmail({ ...notice, instagram: null }, testSiteUrl);
    expect(email.text).not.toContain('prefers a reply by Instagram');
    expect(email.html).not.toContain('prefers a reply by Instagram');
    expect(email.html).not.toContain('instagram.com');
    expect(email.text).toContain('Instagram:  (not given)\n');
    expect(email.html).toContain('<em>not given</em>');
    expect(replyActions({ ...notice, instagram: null }).map((a) => a.label)).toEqual([
      'Reply by e-mail',
      'Call',
    ]);
  });

  it.each([
    ['a UK mobile', '07700 900123', ['Call', 'WhatsApp', 'Text message (SMS)']],
    [
      'a UK mobile, international',
      '+44 (0) 7700 900 123',
      ['Call', 'WhatsApp', 'Text message (SMS)'],
    ],
    ['a landline', '01634 123456', ['Call']],
    ['a landline, international', '+44 20 7946 0000', ['Call']],
    ['a landline written 0044', '0044 1634 123456', ['Call']],
    ['a personal number (070)', '07000 123456', ['Call']],
    ['a number outside the UK', '+33 6 12 34 56 78', ['Call', 'WhatsApp']],
    ['a number outside the UK written 00', '0033 6 12 34 56 78', ['Call', 'WhatsApp']],
    ['a number without a country code or a trunk zero', '612 345 678', ['Call']],
  ])(
    'offers a text and WhatsApp only where they can reach someone: %s (%j)',
    (_, phone, labels) => {
      const actions = replyActions({ ...notice, instagram: null, phone });
      expect(actions.map((a) => a.label).filter((label) => label !== 'Reply by e-mail')).toEqual(
        labels,
      );
      if (labels.includes('WhatsApp') && phone.startsWith('+33')) {
        expect(actions.find((a) => a.label === 'WhatsApp')!.href).toBe('https://wa.me/33612345678');
      }
    },
  );

  it('takes "none" typed in the Instagram field for no handle, never a name to message', () => {
    const read = noticeFromRow({
      booking_id: notice.id,
      created_at: notice.createdAt.toISOString(),
      full_name: notice.fullName,
      phone: notice.phone,
      email: notice.email,
      instagram: 'None',
    });
    const email = composeBookingEmail(read, testSiteUrl);
    expect(email.text).not.toContain('prefers a reply by Instagram');
    expect(email.html).not.toContain('ig.me');
    expect(replyActions(read)[0]!.label).toBe('Reply by e-mail');
  });

  it('says the visitor prefers Instagram even when what they typed cannot be linked', () => {
    const email = composeBookingEmail({ ...notice, instagram: 'amina k' }, testSiteUrl);
    expect(email.text).toContain('Amina Khan prefers a reply by Instagram message (amina k).\n');
    expect(email.html).toContain('prefers a reply by Instagram message (amina k).');
    expect(email.html).not.toContain('Open Instagram profile');
    expect(email.html).not.toContain('Message on Instagram');
  });

  it('gives a reply-by time 24 hours on, in UK time, across the change from BST to GMT', () => {
    const arrived = new Date('2026-10-24T19:30:00Z');
    expect(replyBy(arrived)).toEqual(new Date('2026-10-25T19:30:00Z'));
    const email = composeBookingEmail({ ...notice, createdAt: arrived }, testSiteUrl);
    expect(email.text).toContain('Received:   Saturday 24 October 2026, 20:30 BST\n');
    expect(email.text).toContain('Reply by:   Sunday 25 October 2026, 19:30 GMT\n');
    expect(email.html).toContain('Sunday 25 October 2026, 19:30 GMT');
  });

  it('keeps what a visitor typed from becoming markup, links or extra lines', () => {
    const email = composeBookingEmail(
      {
        ...notice,
        fullName: 'Eve\nReceived: never <img src=x onerror=alert(1)>',
        phone: '07700 900123"><script>',
        email: '"><script>alert(1)</script>@evil.example',
        instagram: '<b>not a handle</b>',
      },
      testSiteUrl,
    );
    expect(email.subject).toBe(
      'Booking request from Eve Received: never <img src=x onerror=alert(1)>',
    );
    expect(email.text).toContain('Name:       Eve Received: never <img src=x onerror=alert(1)>\n');
    expect(email.text).toContain('Call: tel:07700900123\n');
    expect(email.text).not.toContain('WhatsApp');
    expect(email.html).not.toMatch(/<img|<script|<b>/);
    expect(email.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(email.html).toContain(
      '<a href="mailto:%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E@evil.example">&quot;&gt;&lt;script&gt;',
    );
    expect(email.html).toContain('&lt;b&gt;not a handle&lt;/b&gt;</td>');
    // The name in the drafted reply is percent-encoded, its line break a space.
    expect(email.html).toContain('body=Hello%20Eve%20Received%3A%20never%20%3Cimg%20src%3Dx');
    // An unusual address is not offered as the reply address.
    expect(email.replyTo).toBeUndefined();
  });

  it('sets a name written right to left apart from its line, so that the line keeps its direction', () => {
    const arabic = composeBookingEmail({ ...notice, fullName: 'محمد عبد الله' }, testSiteUrl);
    expect(arabic.subject).toBe('Booking request from \u2068محمد عبد الله\u2069');
    expect(arabic.text).toContain('Name:       \u2068محمد عبد الله\u2069\n');
    expect(composeBookingEmail(notice, testSiteUrl).subject).not.toContain('\u2068');
  });

  it('shortens a long name in the subject only', () => {
    const email = composeBookingEmail({ ...notice, fullName: 'A'.repeat(100) }, testSiteUrl);
    expect(email.subject).toBe(`Booking request from ${'A'.repeat(59)}…`);
    expect(email.text).toContain(`Name:       ${'A'.repeat(100)}\n`);
    // Between the characters a reader sees, never inside one: a family emoji is five code points.
    const family = '👨\u200d👩\u200d👧';
    const emoji = composeBookingEmail(
      { ...notice, fullName: `${'A'.repeat(58)}${family} Z` },
      testSiteUrl,
    );
    expect(emoji.subject).toBe(`Booking request from ${'A'.repeat(58)}${family}…`);
  });
});

describe('composeWebhookBody', () => {
  it('carries the booking, its UTC and UK times and the Instagram link', () => {
    expect(composeWebhookBody(notice)).toEqual({
      type: 'booking.created',
      booking: {
        id: notice.id,
        created_at: '2026-07-01T13:05:00.000Z',
        received_uk: 'Wednesday 1 July 2026, 14:05 BST',
        full_name: 'Amina Khan',
        phone: '+44 (0) 1634 123 456',
        email: 'amina@example.com',
        instagram: 'amina.k',
        instagram_url: 'https://instagram.com/amina.k',
      },
    });
  });
});
