import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  bookingFieldRules,
  bookingFields,
  hasFailures,
  hasHiddenCharacter,
  hiddenCharacterRanges,
  storedValue,
  trimField,
  validateBooking,
  type BookingField,
  type BookingForm,
} from '../../supabase/functions/_shared/core/booking-rules.ts';
import { oneInboxSpellings, plainAddresses, unplainAddresses } from '../testing/email-examples.ts';
import { fakeNames, realNames } from '../testing/full-name-examples.ts';
import {
  hasLetter,
  longestMarkRun,
} from '../../supabase/functions/_shared/core/letters-and-marks.ts';
import { testEngines } from '../testing/helpers.ts';
import { DatabaseError } from '../../supabase/functions/_shared/db/database.ts';
import { useTestDatabase } from '../testing/test-database.ts';

/**
 * The database's check constraints against core's field table: rows generated
 * from the table (each length limit and one past it, every class of hidden
 * character, white space at the ends) are inserted straight into the table as
 * anon, as hosted Supabase would, and must meet the same verdict as
 * validateBooking. A change to either side alone fails here.
 */

const valid: BookingForm = {
  fullName: 'Aisha Khan',
  phone: '07700 900123',
  email: 'aisha@example.co.uk',
  instagram: '@aisha.k',
};

/** A value of exactly `length` characters that breaks no other rule of `field`. */
function valueOfLength(field: BookingField, length: number): string {
  switch (field) {
    case 'phone':
      return '0'.repeat(length);
    case 'email':
      return `${'a'.repeat(Math.max(0, length - '@b.co'.length))}@b.co`;
    default:
      // Letters outside the BMP (a name needs one) count once, as SQL counts them.
      return '𝒜'.repeat(length);
  }
}

/** A number copied from iOS's Contacts: direction marks around it, no-break spaces in it. */
const phoneCopiedOnIos = '\u202a+44\u00a07700\u00a0900123\u202c';

/** Instagram values as visitors type or paste them, and the edges of the rule that reduces them to a user name. */
const instagramExamples = [
  '@Amina.K',
  'amina_k',
  'https://www.instagram.com/amina.k/',
  'instagram.com/Amina.K?igsh=MWQ1ZGUxMzBkMA==',
  'HTTP://M.INSTAGRAM.COM/amina.k#top',
  `https://www.instagram.com/amina.k/?igsh=${'x'.repeat(80)}`,
  'https://www.instagram.com/amina.k/?igsh=a\u200bb\nc',
  'instagram.com/@amina.k',
  'https://www.instagram.com/Amina.K/profilecard/?igsh=MXZwNGd2Zmdlb2Q5MQ==',
  'instagram.com/amina.k/profilecard',
  'https://www.instagram.com/',
  'https://www.instagram.com/amina.k/reels/',
  'https://evil.example/amina.k',
  '@',
  '@@amina',
  '@ amina',
  'Amina K',
  'ÀMINA',
  `@${'a'.repeat(30)}`,
  `${'A'.repeat(31)}`,
];

/** The code points of `ranges` but the surrogates, which SQL's chr() refuses. */
function* codePoints(...ranges: [first: number, last: number][]): Generator<number> {
  for (const [first, last] of ranges) {
    for (let point = first; point <= last; point += 1) {
      if (point < 0xd800 || point > 0xdfff) yield point;
    }
  }
}

interface Case {
  name: string;
  form: BookingForm;
}

function generatedCases(): Case[] {
  const cases: Case[] = [];
  const add = (field: BookingField, name: string, value: string) =>
    cases.push({ name: `${field}: ${name}`, form: { ...valid, [field]: value } });

  for (const field of bookingFields) {
    const rule = bookingFieldRules[field];
    add(field, 'empty', '');
    add(field, 'white space only', ' \u3000\t');
    add(field, 'white space at both ends', `\u2003 ${valid[field]}\u00a0\ufeff`);
    add(field, 'at the longest', valueOfLength(field, rule.maxLength));
    add(field, 'one past the longest', valueOfLength(field, rule.maxLength + 1));
    if ('minLength' in rule) {
      add(field, 'at the shortest', valueOfLength(field, rule.minLength));
      add(field, 'one short of the shortest', valueOfLength(field, rule.minLength - 1));
    }
    if ('needsLetter' in rule) {
      for (const name of realNames) add(field, JSON.stringify(name), name);
      for (const { name, text } of fakeNames) add(field, name, text);
    }
    if ('maxMarksInARow' in rule) {
      const marks = (count: number) => '\u0301\u0300\u0302\u0303\u0308\u030a'.slice(0, count);
      add(field, 'as many marks in a row as allowed', `Ami${marks(rule.maxMarksInARow)}na`);
      add(field, 'one mark more than allowed', `Ami${marks(rule.maxMarksInARow + 1)}na`);
    }
    for (const [first, last] of hiddenCharacterRanges) {
      for (const point of new Set([Math.max(first, 1), last])) {
        const character = String.fromCodePoint(point);
        const middle = Math.floor(valid[field].length / 2);
        add(
          field,
          `U+${point.toString(16).toUpperCase().padStart(4, '0')} inside`,
          `${valid[field].slice(0, middle)}${character}${valid[field].slice(middle)}`,
        );
      }
    }
  }
  for (const phone of [
    '----------',
    'abc1234567',
    '+(((((((((',
    '123-456 ()',
    '123-4567 ()',
    '+44 (0) 1634 123 456',
    // As pasted or typed on a phone: direction marks, no-break spaces, dashes, other digits.
    phoneCopiedOnIos,
    '07700\u2011900\u2013123\u2212',
    '\u0660\u0667\u0667\u0660\u0660 \u0669\u0660\u0660\u0661\u0662\u0663',
    '\u06f0\u06f7\u06f7\u06f0\u06f0\u06f9\u06f0\u06f0\u06f1\u06f2\u06f3',
    '\uff0b\uff14\uff14\uff08\uff10\uff09\uff11\uff16\uff13\uff14\u3000123456',
    '\u2066\u00a0\u2069\u0661\u0662\u0663',
  ]) {
    add('phone', JSON.stringify(phone), phone);
  }
  for (const typed of instagramExamples) add('instagram', JSON.stringify(typed), typed);
  for (const typed of [...oneInboxSpellings, ...plainAddresses, ...unplainAddresses, 'foo@bar']) {
    add('email', JSON.stringify(typed), typed);
  }
  return cases;
}

describe.each(testEngines('field-rules'))('the table and core agree on $name', (engine) => {
  const opened = useTestDatabase(engine);

  const columns = bookingFields.map((field) => bookingFieldRules[field].column);

  /** Inserts `form`, as typed (untrimmed), straight into the table as anon; answers its id, none if refused. */
  const insertAsAnon = async (form: BookingForm): Promise<string | undefined> => {
    const id = randomUUID();
    try {
      await opened.db.transaction(async (tx) => {
        await tx.query('set local role anon');
        await tx.query(
          `insert into public.bookings (id, ${columns.join(', ')}) values ($1, $2, $3, $4, $5)`,
          [id, ...bookingFields.map((field) => form[field])],
        );
      });
      return id;
    } catch (error) {
      if (error instanceof DatabaseError && ['23502', '23514'].includes(error.code)) return;
      throw error;
    }
  };

  it('gives every generated row the verdict of validateBooking, and stores each it takes as core would send it: trimmed, the Instagram field a user name or null', async () => {
    const cases = generatedCases();
    const disagreements: string[] = [];
    const stored: { name: string; core: string; table: string }[] = [];
    for (const { name, form } of cases) {
      const coreAccepts = !hasFailures(validateBooking(form));
      const id = await insertAsAnon(form);
      if ((id !== undefined) !== coreAccepts) {
        disagreements.push(
          `${name}: core ${coreAccepts ? 'accepts' : 'refuses'}, the table ${id !== undefined ? 'accepts' : 'refuses'}`,
        );
      }
      if (id === undefined) continue;
      const { rows } = await opened.db.query(
        `select ${columns.join(', ')} from public.bookings where id = $1`,
        [id],
      );
      const core = Object.fromEntries(
        bookingFields.map((field) => [
          bookingFieldRules[field].column,
          storedValue(field, form[field]) || null,
        ]),
      );
      stored.push({ name, core: JSON.stringify(core), table: JSON.stringify(rows[0]) });
    }
    expect(disagreements).toEqual([]);
    // The cases cover both verdicts.
    expect(cases.some(({ form }) => hasFailures(validateBooking(form)))).toBe(true);
    expect(cases.some(({ form }) => !hasFailures(validateBooking(form)))).toBe(true);
    expect(stored.filter(({ core, table }) => core !== table)).toEqual([]);
    // Among them: white space trimmed, a pasted phone number made plain, an empty Instagram
    // field, a link reduced to its user name.
    const table = (name: string) => JSON.parse(stored.find((row) => row.name === name)!.table);
    expect(table('fullName: white space at both ends')).toMatchObject({ full_name: 'Aisha Khan' });
    expect(table(`phone: ${JSON.stringify(phoneCopiedOnIos)}`)).toMatchObject({
      phone: '+44 7700 900123',
    });
    expect(table('instagram: white space only')).toMatchObject({ instagram: null });
    expect(table('instagram: "https://www.instagram.com/amina.k/"')).toMatchObject({
      instagram: 'amina.k',
    });
  });

  // Letters reach into planes 2 and 3 (the rarer ideographs), marks and
  // hidden characters into plane 14. Compared as ranges: a row per code point
  // would take seconds more.
  it.each([
    {
      name: 'a letter',
      sql: 'app_private.has_letter(chr(point))',
      core: hasLetter,
      moreRangesThan: 100,
    },
    {
      name: 'a combining mark',
      sql: 'app_private.has_more_marks_in_a_row(chr(point), 0)',
      core: (character: string) => longestMarkRun(character) > 0,
      moreRangesThan: 100,
    },
    {
      name: 'a hidden character',
      sql: 'app_private.has_hidden_character(chr(point))',
      core: hasHiddenCharacter,
      moreRangesThan: 20,
    },
  ])('finds $name in exactly the code points core does', async ({ sql, core, moreRangesThan }) => {
    const { rows } = await opened.db.query<{ first: number; last: number }>(
      `select min(point) as first, max(point) as last
         from (
           select point, point - row_number() over (order by point) as island
             from (
               select generate_series(1, 262143) as point
               union all select generate_series(917504, 983039)
             ) as scanned
            where (point < 55296 or point > 57343) and ${sql}
         ) as found
        group by island
        order by first`,
    );
    const inCore: { first: number; last: number }[] = [];
    for (const point of codePoints([1, 0x3ffff], [0xe0000, 0xeffff])) {
      if (!core(String.fromCodePoint(point))) continue;
      const last = inCore.at(-1);
      if (last && last.last === point - 1) last.last = point;
      else inCore.push({ first: point, last: point });
    }
    expect(rows).toEqual(inCore);
    expect(inCore.length).toBeGreaterThan(moreRangesThan);
  });

  it('counts combining marks in a row as core does', async () => {
    const texts = [
      'Amina',
      'Nguye\u0302\u0303n Va\u0306n',
      `a${'\u0301'.repeat(99)}`,
      '\u0301\u0301 b \u0301\u0301\u0301',
      '\u{11005}\u{11038}\u{11038}\u{e0100}',
    ];
    const mosts = [0, 1, 2, 3, 4, 98, 99];
    const { rows } = await opened.db.query<{ text: string; most: number; more: boolean }>(
      `select text, most, app_private.has_more_marks_in_a_row(text, most) as more
         from unnest($1::text[]) as text, unnest($2::integer[]) as most`,
      [texts, mosts],
    );
    const differences = rows.filter(({ text, most, more }) => more !== longestMarkRun(text) > most);
    expect(differences).toEqual([]);
    expect(rows).toHaveLength(texts.length * mosts.length);
  });

  it('trims exactly the characters core trims', async () => {
    const { rows } = await opened.db.query<{ point: number; trimmed: string }>(
      `select point, app_private.trim_booking_text(chr(point) || 'x' || chr(point)) as trimmed
         from generate_series(1, 65535) as point
        where point < 55296 or point > 57343`,
    );
    const differences = rows.filter(({ point, trimmed }) => {
      const character = String.fromCodePoint(point);
      return trimmed !== trimField(`${character}x${character}`);
    });
    expect(differences.map(({ point }) => point.toString(16))).toEqual([]);
  });
});
