import { practice } from '../content/practice.ts';
import { formatUkTimeLong } from '../uk-time.ts';

/**
 * The message `npx hijama check` sends through every configured channel, so
 * that the deployer sees each one arrive before a visitor's request depends on
 * it. It makes no booking: nothing is stored, and the practice is not asked to
 * answer anyone.
 */
export type TestMessage = ReturnType<typeof composeTestMessage>;

export function composeTestMessage(now: Date) {
  return {
    /** Makes the Message-ID and Idempotency-Key. */
    id: String(now.getTime()),
    subject: `Test from ${practice.name}'s booking site`,
    text: [
      `This is a test sent by \`npx hijama check\` on ${formatUkTimeLong(now)}.`,
      'No booking was made and no one waits for a reply: booking requests reach you here the same way.',
      '',
    ].join('\n'),
  };
}
