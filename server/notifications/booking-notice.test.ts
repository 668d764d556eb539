import { describe, expect, it } from 'vitest';
import { formatUkTimeLong, formatUkTimeShort } from '../uk-time.ts';
import {
  composeBookingEmail,
  composeWebhookBody,
  escapeHtml,
  instagramUrl,
  type BookingNotice,
} from './booking-notice.ts';

const notice: BookingNotice = {
  id: '5f0c2a8e-2f4b-4d0e-9a47-0a1b2c3d4e5f',
  createdAt: new Date('2026-07-01T13:05:00Z'),
  fullName: 'Amina Khan',
  phone: '+44 (0) 1634 123 456',
  email: 'amina@example.com',
  instagram: '@amina.k',
};

describe('UK time', () => {
  it.each([
    ['2026-01-15T09:05:00Z', 'Thursday 15 January 2026, 09:05 GMT', 'Thu 15 Jan 2026 09:05'],
    ['2026-07-01T13:05:00Z', 'Wednesday 1 July 2026, 14:05 BST', 'Wed 01 Jul 2026 14:05'],
    ['2026-10-24T23:30:00Z', 'Sunday 25 October 2026, 00:30 BST', 'Sun 25 Oct 2026 00:30'],
    ['2026-09-06T08:00:00Z', 'Sunday 6 September 2026, 09:00 BST', 'Sun 06 Sep 2026 09:00'],
  ])('shows %s as %s', (instant, long, short) => {
    expect(formatUkTimeLong(new Date(instant))).toBe(long);
    expect(formatUkTimeShort(new Date(instant))).toBe(short);
  });
});

describe('instagramUrl', () => {
  it.each([
    ['@amina.k', 'https://instagram.com/amina.k'],
    ['amina_k', 'https://instagram.com/amina_k'],
    ['https://www.instagram.com/amina.k/', 'https://instagram.com/amina.k'],
    ['instagram.com/amina.k?igsh=abc', 'https://instagram.com/amina.k'],
    [null, undefined],
    ['amina k', undefined],
    ['javascript:alert(1)', undefined],
    ['@"><script>', undefined],
    ['https://evil.example/amina', undefined],
  ])('links %j to %j', (typed, url) => {
    expect(instagramUrl(typed)).toBe(url);
  });
});

describe('escapeHtml', () => {
  it('escapes what HTML would interpret and drops control characters', () => {
    expect(escapeHtml(`<a href='x'>"Tom" & Jerry</a>\r\n`)).toBe(
      '&lt;a href=&#39;x&#39;&gt;&quot;Tom&quot; &amp; Jerry&lt;/a&gt;  ',
    );
  });
});

describe('composeBookingEmail', () => {
  it('writes every field as plain text and as HTML', () => {
    const email = composeBookingEmail(notice);
    expect(email.subject).toBe('Booking request from Amina Khan');
    expect(email.replyTo).toEqual({ name: 'Amina Khan', address: 'amina@example.com' });
    expect(email.text).toBe(
      [
        'New booking request',
        '',
        'Name:       Amina Khan',
        'Phone:      +44 (0) 1634 123 456',
        'E-mail:     amina@example.com',
        'Instagram:  @amina.k (https://instagram.com/amina.k)',
        'Received:   Wednesday 1 July 2026, 14:05 BST',
        '',
        'The site promises a reply within 24 hours, by e-mail or Instagram message.',
        'Reference:  5f0c2a8e-2f4b-4d0e-9a47-0a1b2c3d4e5f',
        '',
      ].join('\n'),
    );
    expect(email.html).toContain('<a href="tel:+441634123456">+44 (0) 1634 123 456</a>');
    expect(email.html).toContain('<a href="https://instagram.com/amina.k">@amina.k</a>');
    expect(email.html).toContain('Wednesday 1 July 2026, 14:05 BST');
  });

  it('keeps what a visitor typed from becoming markup, links or extra lines', () => {
    const email = composeBookingEmail({
      ...notice,
      fullName: 'Eve\nReceived: never <img src=x onerror=alert(1)>',
      email: '"><script>alert(1)</script>@evil.example',
      instagram: '<b>not a handle</b>',
    });
    expect(email.subject).toBe(
      'Booking request from Eve Received: never <img src=x onerror=alert(1)>',
    );
    expect(email.text).toContain('Name:       Eve Received: never <img src=x onerror=alert(1)>\n');
    expect(email.html).not.toMatch(/<img|<script|<b>/);
    expect(email.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(email.html).toContain(
      '<a href="mailto:%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E@evil.example">&quot;&gt;&lt;script&gt;',
    );
    expect(email.html).toContain('<td style="padding:4px 0">&lt;b&gt;not a handle&lt;/b&gt;</td>');
    // An unusual address is not offered as the reply address.
    expect(email.replyTo).toBeUndefined();
  });

  it('shortens a long name in the subject only', () => {
    const email = composeBookingEmail({ ...notice, fullName: 'A'.repeat(100) });
    expect(email.subject).toBe(`Booking request from ${'A'.repeat(59)}…`);
    expect(email.text).toContain(`Name:       ${'A'.repeat(100)}\n`);
  });

  it('says when no Instagram handle was given', () => {
    const email = composeBookingEmail({ ...notice, instagram: null });
    expect(email.text).toContain('Instagram:  (not given)\n');
    expect(email.html).toContain('<em>not given</em>');
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
        instagram: '@amina.k',
        instagram_url: 'https://instagram.com/amina.k',
      },
    });
  });
});
