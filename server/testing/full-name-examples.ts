/**
 * Names the full name's rules (booking-rules.ts) must take and must refuse,
 * shared by the tests of core, of the server and of the database's checks so
 * that all three are held to the same list.
 */

// Arabic's doubling sign and short a, combining marks set on the letter before them.
const shadda = '\u0651';
const fatha = '\u064e';

/** Real names, in several scripts and as a keyboard may send them (precomposed or not). */
export const realNames: readonly string[] = [
  'Amina Khan',
  'محمد عبدالله',
  // Shadda and fatha on the mim: two marks in a row.
  `محم${shadda}${fatha}د عبدالله`,
  'Zofia Łukasiewicz',
  '王小明',
  'Nguyễn Văn An',
  // The same, decomposed: `ễ` as e with a circumflex and a tilde, `ă` as a with a breve.
  'Nguye\u0302\u0303n Va\u0306n An',
  "O'Brien-Smith",
  'Siân',
  'Sia\u0302n',
  // As a Persian keyboard types it: a zero-width non-joiner inside the family name.
  'زهرا علی\u200cزاده',
  // A family emoji after the name: three emoji held together by zero-width joiners.
  'Amina Khan 👩\u200d👧\u200d👦',
];

/** Names that show no name, or a tower of marks over the text: each one refused. */
export const fakeNames: readonly { name: string; text: string }[] = [
  { name: 'two Hangul fillers', text: '\u3164\u3164' },
  { name: 'a braille blank and a combining grapheme joiner', text: '\u2800\u034f' },
  { name: 'a Hangul choseong filler', text: '\u115f' },
  { name: 'a Hangul jungseong filler', text: '\u1160' },
  { name: 'a halfwidth Hangul filler', text: '\uffa0' },
  { name: 'fillers of every kind', text: '\u115f\u1160\u3164\uffa0\u2800' },
  { name: 'a combining grapheme joiner alone', text: '\u034f' },
  { name: 'variation selectors and a braille blank', text: '\u2800\ufe0f\u{e0100}' },
  { name: 'emoji only', text: '😀😀' },
  { name: 'digits and punctuation only', text: "123 -'." },
  { name: '99 combining marks after one letter', text: `a${'\u0301'.repeat(99)}` },
  { name: 'five marks in a row on a real name', text: `Ami${'\u0301\u0300\u0302\u0303\u0308'}na` },
];
