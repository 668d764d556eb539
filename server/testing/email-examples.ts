/**
 * Addresses the e-mail field's rule (booking-rules.ts) must take and must
 * refuse, shared by the tests of core, of the server and of the database's
 * checks so that all three are held to the same list.
 */

/** The one inbox that every spelling below reaches. */
export const oneInbox = 'v@t.test';

/**
 * Spellings of `oneInbox` that a mail library reads as that address: with a
 * display name, a comment, quotes, a group, a list, a different case, white
 * space or a trailing dot. The field takes only the bare address, in any case
 * and with white space at its ends, which all key the same per-address limit.
 */
export const oneInboxSpellings: readonly string[] = [
  '<v@t.test>',
  'a<v@t.test>',
  'v@t.test(1)',
  '(x)v@t.test',
  'v(x)@t.test',
  '"v"@t.test',
  'g:v@t.test;',
  'v@t.test,',
  'v@t.test;',
  'v@t.test, w@t.test',
  '"Your-account-is-locked:visit-http://evil.example/unlock" <v@t.test>',
  'v@t.test.',
  'V@T.TEST',
  'v@t.test ',
  'v@t.test',
];

/** Plain addresses as people have them: each one taken. */
export const plainAddresses: readonly string[] = [
  'aisha@example.co.uk',
  "o'neil+clinic@mail.example.com",
  'Jo.Smith-1@Example.COM',
  'a@b.co',
  'user@xn--bcher-kva.example',
];

/** Addresses no mail library reads as one plain address, or that SQL could not fold: each one refused. */
export const unplainAddresses: readonly string[] = [
  'a..b@example.com',
  '.a@example.com',
  'a.@example.com',
  'a@-example.com',
  'a@example-.com',
  'a@example..com',
  'a@[192.0.2.1]',
  'a\\b@example.com',
  'a@example.com\\',
  'zoë@example.com',
  'user@bücher.example',
  'v@ｔ.test',
];
