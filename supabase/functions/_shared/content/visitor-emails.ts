import { practice } from './practice.ts';

/**
 * The words of the e-mails a visitor reads from the practice: the draft the
 * practitioner starts a reply from, and the acknowledgement that tells a
 * visitor their request arrived. Composed by the notifications in
 * supabase/functions/_shared/notifications/, on both deployments.
 */

const { name: practiceName, phone, replyWithinHours } = practice;

/** The draft behind the practice's "Reply by e-mail" button; the practitioner edits it before sending. */
export const replyDraft = {
  subject: (reference: string): string =>
    `Your booking request at ${practiceName} (ref. ${reference})`,
  body: (name: string, reference: string): string =>
    [
      `Hello ${name},`,
      '',
      `Thank you for your booking request at ${practiceName} (ref. ${reference}). Which day and time would suit you for your session?`,
      '',
      'Kind regards,',
      practiceName,
    ].join('\n'),
};

/**
 * The e-mail that tells a visitor their booking request arrived
 * (NOTIFY_ACKNOWLEDGE; notifications/acknowledgement-email.ts). It is sent from
 * the practice's address; of what the visitor typed, it repeats only the first
 * name, so that a stranger's address typed into the form receives nothing of
 * the sender's.
 */
export const acknowledgement = {
  subject: (reference: string): string => `We have your booking request (ref. ${reference})`,
  /** The HTML part's heading. */
  heading: 'We have your request',
  /** The line an inbox shows beside the subject. */
  preview: `We reply within ${replyWithinHours} hours.`,
  greeting: (firstName: string): string => `Hello ${firstName},`,
  /** When the first name cannot be shown as a plain name (it holds digits, dots, symbols). */
  greetingWithoutName: 'Hello,',
  received: `Thank you: ${practiceName} has your booking request.`,
  /** The short reference, as the practice's e-mail shows it. */
  reference: (reference: string): string => `Its reference is ${reference}.`,
  /** Above the reference in the HTML part's box. */
  referenceLabel: 'Your reference',
  /** When the request arrived, in UK time: "Request sent Tuesday 24 November 2026, 14:02 GMT." */
  sentAt: (time: string): string => `Request sent ${time}.`,
  reply: `We reply within ${replyWithinHours} hours, by e-mail or Instagram message, to arrange your session.`,
  phone: `If you would rather talk, call or text us on ${phone.display}.`,
  notYou:
    'If you did not send this request, reply to tell us and we will delete it: nothing has been booked.',
  signOff: ['Kind regards,', practiceName] as const,
} as const;
