/**
 * Prints the letters and combining marks of this Node's Unicode as ranges of
 * code points: the text of supabase/functions/_shared/core/letters-and-marks.ts, and the same ranges as
 * the SQL bracket expressions of a migration (as in
 * supabase/migrations/20261201000000_bookings.sql). Run it when a new
 * Unicode version should count: paste both, in core and in a new migration
 * that replaces the two functions; server/db/field-rules-sql.test.ts then
 * checks that they agree, code point by code point.
 * Usage: npx tsx scripts/unicode-name-ranges.ts
 */
import {
  formatRanges,
  type CodePointRange,
} from '../supabase/functions/_shared/core/letters-and-marks.ts';

/** The ranges of code points (surrogates left out) that `pattern` matches alone. */
function rangesOf(pattern: RegExp): CodePointRange[] {
  const ranges: [number, number][] = [];
  for (let point = 0; point <= 0x10ffff; point += 1) {
    if (point >= 0xd800 && point <= 0xdfff) continue;
    if (!pattern.test(String.fromCodePoint(point))) continue;
    const last = ranges.at(-1);
    if (last && last[1] === point - 1) last[1] = point;
    else ranges.push([point, point]);
  }
  return ranges;
}

/** Words joined by `separator` into lines of at most `width` characters. */
function wrap(words: string[], width: number, separator = ' '): string[] {
  const lines: string[] = [];
  for (const word of words) {
    const line = lines.at(-1);
    if (line !== undefined && line.length + separator.length + word.length <= width) {
      lines[lines.length - 1] = `${line}${separator}${word}`;
    } else {
      lines.push(word);
    }
  }
  return lines;
}

/** PostgreSQL's Unicode escapes: `\XXXX`, or `\+XXXXXX` beyond the first plane. */
function sqlEscape(point: number): string {
  const hex = point.toString(16).toUpperCase();
  return point > 0xffff ? `\\+${hex.padStart(6, '0')}` : `\\${hex.padStart(4, '0')}`;
}

/** A bracket expression over several lines of `U&'…' ||`: a line break inside would be matched. */
function sqlBracket(ranges: readonly CodePointRange[]): string {
  const items = ranges.map(([first, last]) =>
    first === last ? sqlEscape(first) : `${sqlEscape(first)}-${sqlEscape(last)}`,
  );
  // Nothing between the items: a space would be one more character of the class.
  const lines = wrap(items, 90, '');
  return lines
    .map((line, index) => {
      const text = `${index === 0 ? '[' : ''}${line}${index === lines.length - 1 ? ']' : ''}`;
      return `    U&'${text}'${index === lines.length - 1 ? '' : ' ||'}`;
    })
    .join('\n');
}

const letters = rangesOf(/^(?!\p{Default_Ignorable_Code_Point})\p{L}$/u);
const marks = rangesOf(/^\p{M}$/u);

const core = (ranges: readonly CodePointRange[]) =>
  wrap(formatRanges(ranges).split(' '), 96).join('\n');

console.log(`Unicode ${process.versions.unicode}\n`);
console.log(`letterRanges (core):\n${core(letters)}\n`);
console.log(`combiningMarkRanges (core):\n${core(marks)}\n`);
console.log(`letters (SQL):\n${sqlBracket(letters)}\n`);
console.log(`combining marks (SQL):\n${sqlBracket(marks)}`);
