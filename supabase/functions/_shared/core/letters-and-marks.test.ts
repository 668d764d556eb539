import { describe, expect, it } from 'vitest';
import {
  combiningMarkRanges,
  formatRanges,
  hasLetter,
  letterRanges,
  longestMarkRun,
  type CodePointRange,
} from './letters-and-marks.ts';

const newerUnicode =
  'this runtime knows a newer Unicode: print the ranges with `npx tsx scripts/unicode-name-ranges.ts`, ' +
  'paste them into supabase/functions/_shared/core/letters-and-marks.ts and into a new migration that replaces the SQL functions';

function inRanges(ranges: readonly CodePointRange[], point: number): boolean {
  return ranges.some(([first, last]) => point >= first && point <= last);
}

/** Code points of every plane, surrogates left out, where `differs` holds, in hexadecimal. */
function pointsWhere(differs: (point: number, character: string) => boolean): string[] {
  const found: string[] = [];
  for (let point = 0; point <= 0x10ffff; point += 1) {
    if (point >= 0xd800 && point <= 0xdfff) continue;
    if (differs(point, String.fromCodePoint(point))) found.push(point.toString(16));
  }
  return found;
}

const unassigned = /^\p{Cn}$/u;

describe.each([
  {
    name: 'the letters',
    ranges: letterRanges,
    pattern: /^(?!\p{Default_Ignorable_Code_Point})\p{L}$/u,
  },
  { name: 'the combining marks', ranges: combiningMarkRanges, pattern: /^\p{M}$/u },
])('$name', ({ ranges, pattern }) => {
  it('hold nothing else in this runtime (code points it has not assigned yet aside)', () => {
    const strays = pointsWhere(
      (point, character) =>
        inRanges(ranges, point) && !pattern.test(character) && !unassigned.test(character),
    );
    expect(strays).toEqual([]);
  });

  it('miss none this runtime knows', () => {
    const missed = pointsWhere(
      (point, character) => pattern.test(character) && !inRanges(ranges, point),
    );
    expect(missed, newerUnicode).toEqual([]);
  });

  it('are sorted and apart, as the SQL bracket expression is written', () => {
    for (const [index, [first, last]] of ranges.entries()) {
      expect(first).toBeLessThanOrEqual(last);
      if (index > 0) expect(first).toBeGreaterThan(ranges[index - 1]![1] + 1);
    }
  });
});

describe('hasLetter', () => {
  it.each(['A', 'z', 'Ł', 'م', '王', 'ễ', 'ß', 'ㄱ', '𝒜'])('finds one in %s', (text) => {
    expect(hasLetter(`- ${text} -`)).toBe(true);
  });

  it.each([
    ['Hangul fillers', '\u115f\u1160\u3164\uffa0'],
    ['a braille blank', '\u2800'],
    ['digits, punctuation and spaces', "0 1 -'."],
    ['combining marks alone', '\u0301\u034f\u0651'],
    ['emoji', '😀❤️'],
  ])('finds none in %s', (_name, text) => {
    expect(hasLetter(text)).toBe(false);
  });
});

describe('longestMarkRun', () => {
  it.each([
    ['Amina', 0],
    ['Nguye\u0302\u0303n', 2],
    ['a\u0301 e\u0301\u0300\u0302', 3],
    [`a${'\u0301'.repeat(99)}`, 99],
    // Outside the BMP: counted as characters, not UTF-16 units.
    ['\u{11005}\u{11038}\u{11038}', 2],
  ])('counts %j as %i', (text, run) => {
    expect(longestMarkRun(text)).toBe(run);
  });
});

describe('formatRanges', () => {
  it('writes single points and ranges in hexadecimal, four digits at least', () => {
    expect(
      formatRanges([
        [0x41, 0x5a],
        [0xaa, 0xaa],
        [0x1d49c, 0x1d49c],
      ]),
    ).toBe('0041-005A 00AA 1D49C');
  });
});
