import { describe, expect, it } from 'vitest';
import {
  givenInstagram,
  instagramUrl,
  mailtoUrl,
  smsUrl,
  telUrl,
  whatsAppUrl,
} from './reply-links.ts';

describe('whatsAppUrl', () => {
  it.each([
    ['07700 900123', '447700900123'],
    ['07700900123', '447700900123'],
    ['+44 7700 900123', '447700900123'],
    ['+447700900123', '447700900123'],
    ['0044 7700 900123', '447700900123'],
    ['+44 (0) 7700 900123', '447700900123'],
    ['+44 (0)7700-900-123', '447700900123'],
    ['44 7700 900123', '447700900123'],
    ['+44 07700 900123', '447700900123'],
    ['(0)7700 900123', '447700900123'],
    // The Isle of Man's mobiles too.
    ['07624 123456', '447624123456'],
  ])('reads %j as a UK mobile', (phone, number) => {
    expect(whatsAppUrl(phone)).toBe(`https://wa.me/${number}`);
  });

  it.each([
    ['a landline', '01634 123456'],
    ['a London landline, international', '+44 20 7946 0000'],
    ['a landline with the trunk zero', '+44 (0) 1634 123 456'],
    ['a personal number (070)', '07000 123456'],
    ['a pager (076)', '07600 123456'],
    ['a mobile one digit short', '07700 90012'],
    ['a mobile one digit long', '07700 9001234'],
    ['a foreign mobile', '+33 6 12 34 56 78'],
    ['letters', 'call me maybe'],
    ['a number with letters', '07700 900123 ext'],
    ['punctuation only', '+() -'],
  ])('offers no WhatsApp for %s (%j)', (_, phone) => {
    expect(whatsAppUrl(phone)).toBeUndefined();
  });
});

describe('telUrl and smsUrl', () => {
  it.each([
    ['+44 (0) 1634 123 456', '+441634123456'],
    ['07700 900123', '07700900123'],
    ['+44 7700-900-123', '+447700900123'],
    ['01634 123456 + 2', '016341234562'],
    // The UK's code with its trunk 0 kept, or without its +; a trunk 0 in brackets alone.
    ['+44 07700 900123', '+447700900123'],
    ['0044 07700 900123', '+447700900123'],
    ['44 7700 900123', '+447700900123'],
    ['(0)7700 900123', '07700900123'],
  ])('dial %j as %j', (phone, number) => {
    expect(telUrl(phone)).toBe(`tel:${number}`);
    expect(smsUrl(phone)).toBe(`sms:${number}`);
  });

  it('give no link when there is no digit', () => {
    expect(telUrl('+() -')).toBeUndefined();
    expect(smsUrl('+() -')).toBeUndefined();
  });
});

describe('mailtoUrl', () => {
  it('encodes the address either side of the @', () => {
    expect(mailtoUrl('"a b"@example.com')).toBe('mailto:%22a%20b%22@example.com');
  });

  it('adds a subject and a body, line breaks as CRLF, every mark encoded', () => {
    expect(
      mailtoUrl('amina@example.com', { subject: 'Your request (ref. 1)', body: "Hi & 'bye'!\nX*" }),
    ).toBe(
      'mailto:amina@example.com?subject=Your%20request%20%28ref.%201%29&body=Hi%20%26%20%27bye%27%21%0D%0AX%2A',
    );
  });
});

describe('instagramUrl', () => {
  // What a stored value reduces to is normaliseInstagram's (booking-rules.test.ts).
  it.each([
    ['@amina.k', 'https://instagram.com/amina.k'],
    ['https://www.instagram.com/amina.k/', 'https://instagram.com/amina.k'],
    [null, undefined],
    ['amina k', undefined],
    ['javascript:alert(1)', undefined],
    ['@"><script>', undefined],
    ['https://evil.example/amina', undefined],
    // Names Instagram gives nobody.
    ['amina..k', undefined],
    ['.amina', undefined],
    ['amina.', undefined],
    ['_amina_', 'https://instagram.com/_amina_'],
  ])('links %j to %j', (typed, url) => {
    expect(instagramUrl(typed)).toBe(url);
  });
});

describe('givenInstagram', () => {
  // "I have none": an account of that name is a stranger's.
  it.each([
    'None',
    'no',
    '@nil',
    'N.A',
    'N/A',
    'No.',
    'x',
    'XXX',
    '.',
    '-',
    'No instagram',
    'I don’t have one',
    'dont use it!',
  ])('takes %j for not given', (typed) => {
    expect(givenInstagram(typed)).toBeNull();
  });

  it.each(['nonewhere', 'amina.k', 'n_a_s', 'no.account.jo'])('keeps %j', (typed) => {
    expect(givenInstagram(typed)).toBe(typed);
  });
});
