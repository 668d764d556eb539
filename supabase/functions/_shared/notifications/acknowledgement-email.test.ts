import { describe, expect, it } from 'vitest';
import { practice } from '../content/practice.ts';
import * as visitorEmails from '../content/visitor-emails.ts';
import { composeAcknowledgement, firstNameOf } from './acknowledgement-email.ts';

/**
 * The visitor's acknowledgement repeats nothing they typed but a plain first
 * name: the form accepts any address, so the e-mail must carry nothing of the
 * sender's to a stranger.
 */

const bookingId = '5f0c2a8e-2f4b-4c1d-9e8f-0a1b2c3d4e5f';
const createdAt = new Date('2026-11-24T14:02:00Z');

const compose = (fullName: string) => composeAcknowledgement({ bookingId, fullName, createdAt });

describe('composeAcknowledgement', () => {
  it('greets by the first name only, escaped, and shows none of the rest of the name', () => {
    const email = compose('Amina <b>Khan</b>');
    expect(email.text).toContain(visitorEmails.acknowledgement.greeting('Amina'));
    expect(email.html).toContain(visitorEmails.acknowledgement.greeting('Amina'));
    for (const part of [email.subject, email.text, email.html]) {
      expect(part).not.toContain('Khan');
      expect(part).not.toContain('<b>');
    }
  });

  it('greets without a name when the first word is markup, and repeats none of it', () => {
    const email = compose('<img src=x onerror=alert(1)> Khan');
    expect(email.html).not.toContain('<img');
    expect(email.html).not.toContain('&lt;img');
    expect(email.text).not.toContain('img');
    expect(email.text.startsWith(`${visitorEmails.acknowledgement.greetingWithoutName}\n`)).toBe(
      true,
    );
  });

  it('escapes the first name in HTML', () => {
    const email = compose("O'Neil Khan");
    expect(email.html).toContain(visitorEmails.acknowledgement.greeting('O&#39;Neil'));
    expect(email.text).toContain(visitorEmails.acknowledgement.greeting("O'Neil"));
  });

  it("gives the reference, the time sent in UK time, the promise and the practice's phone (a link in HTML), in a whole HTML document with a plain-text twin", () => {
    const email = compose('Amina Khan');
    const copy = visitorEmails.acknowledgement;
    const sentAt = copy.sentAt('Tuesday 24 November 2026, 14:02 GMT');
    const hours = `within ${practice.replyWithinHours} hours`;
    const { display, international } = practice.phone;
    expect(email.subject).toBe(copy.subject('5F0C2A8E'));
    for (const fragment of [copy.reference('5F0C2A8E'), sentAt, hours, display, copy.reply]) {
      expect(email.text).toContain(fragment);
    }
    for (const fragment of ['5F0C2A8E', sentAt, hours, `href="tel:${international}"`]) {
      expect(email.html).toContain(fragment);
    }
    expect(email.html).toMatch(/^<!doctype html>\n<html lang="en-GB">/);
    expect(email.html).toContain(`<h1 `);
    expect(email.text).not.toMatch(/<[a-z]/i);
    expect(email.text.endsWith(`${copy.signOff.join('\n')}\n`)).toBe(true);
  });
});

describe('firstNameOf', () => {
  it.each([
    ['Amina Khan', 'Amina'],
    ['  Jean-Luc Picard ', 'Jean-Luc'],
    ["O'Neil", "O'Neil"],
    ['Zoë Smith', 'Zoë'],
    ['محمد علي', 'محمد'],
    ['Nguyễn Văn An', 'Nguyễn'],
    ['Nguye\u0302\u0303n Va\u0306n An', 'Nguye\u0302\u0303n'],
    ['김민준', '김민준'],
  ])('takes "%s" as %s', (fullName, first) => {
    expect(firstNameOf(fullName)).toBe(first);
  });

  it.each([
    ['Mr Ahmed'],
    ['Dr. Ali Hassan'],
    ['www.example.com Khan'],
    ['https://spam.example/win Khan'],
    ['Win£100 now'],
    ['A'.repeat(31)],
    ['<b>Amina</b>'],
    ['   '],
    // The Hangul fillers are letters to \p{L}, but show nothing.
    ['\u3164 Amina'],
    ['\u115f\u1160 Amina'],
    ['\uffa0 Amina'],
    ['A\u3164\u3164 Khan'],
  ])('repeats no first name from "%s"', (fullName) => {
    expect(firstNameOf(fullName)).toBeUndefined();
  });
});
