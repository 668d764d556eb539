import { describe, expect, it } from 'vitest';
import {
  bookingFieldRules,
  emptyBookingForm,
  hasHiddenCharacter,
  maxLengths,
  trimField,
  messageFor,
  normaliseInstagram,
  storedValue,
  validateBooking,
  type BookingField,
  type BookingForm,
  type RuleFailure,
} from './booking-rules.ts';
import { toBookingRow } from './booking-row.ts';
import {
  oneInbox,
  oneInboxSpellings,
  plainAddresses,
  unplainAddresses,
} from '../../../../server/testing/email-examples.ts';
import { fakeNames, realNames } from '../../../../server/testing/full-name-examples.ts';

const valid: BookingForm = {
  fullName: 'Aisha Khan',
  phone: '07700 900123',
  email: 'aisha@example.co.uk',
  instagram: '',
};

describe('validateBooking', () => {
  it('takes a complete request, and asks for every required field of an empty form', () => {
    expect(validateBooking(valid)).toEqual({});
    expect(validateBooking(emptyBookingForm)).toEqual({
      fullName: 'required',
      phone: 'required',
      email: 'required',
    });
  });

  // Each value in place of its field in an otherwise valid request.
  it.each<[BookingField, string]>([
    ['phone', '+44 (0) 1634 123 456'],
    ['phone', '01634-123-456'],
    ['phone', '0123456789'], // exactly ten characters
    ['phone', '123-4567 ()'], // seven digits
    ['fullName', '  Aisha  '],
    ['fullName', '\u3000Aisha\u3000'], // ideographic spaces around it
    ['fullName', 'a'.repeat(maxLengths.fullName)],
    ['fullName', '𝒜'.repeat(100)], // 100 letters outside the BMP, 200 UTF-16 units
    ['instagram', '@aisha.k'],
  ])('takes %s %j', (field, value) => {
    expect(validateBooking({ ...valid, [field]: value })).toEqual({});
  });

  it.each<[BookingField, string, RuleFailure]>([
    ['fullName', '   ', 'required'],
    ['phone', '    ', 'required'],
    ['email', '', 'required'],
    ['phone', 'abc1234567', 'invalid'],
    ['phone', '12345', 'invalid'],
    ['phone', '012345678', 'invalid'], // nine characters
    ['phone', '07700.900.123', 'invalid'],
    ['phone', '----------', 'invalid'],
    ['phone', '+(((((((((', 'invalid'],
    ['phone', '123-456 ()', 'invalid'], // six digits
    ['email', 'a b@c.co', 'invalid'],
    ['email', 'foo@bar', 'invalid'],
    ['email', 'foo.bar.com', 'invalid'],
    ['email', 'a@b@c.com', 'invalid'],
    ['email', 'aisha\u00a0k@example.co.uk', 'invalid'], // a no-break space
    // A hidden character in any field; which characters are hidden is the next describe's.
    ['fullName', 'Aisha\u0007 Khan', 'invalid'], // a bell
    ['fullName', 'Aisha \u202eKhan', 'invalid'], // a right-to-left override
    ['email', 'aisha\u200b@example.co.uk', 'invalid'], // a zero-width space
    ['instagram', '@ai\u0085sha', 'invalid'], // a C1 control
    ['fullName', 'a'.repeat(maxLengths.fullName + 1), 'tooLong'],
    ['fullName', '𝒜'.repeat(101), 'tooLong'],
    ['phone', '1'.repeat(maxLengths.phone + 1), 'tooLong'],
    ['email', `${'a'.repeat(250)}@b.co`, 'tooLong'],
    ['instagram', 'x'.repeat(maxLengths.instagram + 1), 'tooLong'],
  ])('refuses %s %j as %s', (field, value, failure) => {
    expect(validateBooking({ ...valid, [field]: value })).toEqual({ [field]: failure });
  });
});

describe('hidden characters', () => {
  it('cover every control and format character this runtime knows, and the line and paragraph separators', () => {
    const missed: string[] = [];
    for (let point = 0; point <= 0x10ffff; point += 1) {
      if (point >= 0xd800 && point <= 0xdfff) continue;
      const character = String.fromCodePoint(point);
      if (/[\p{Cc}\p{Cf}\u2028\u2029]/u.test(character) && !hasHiddenCharacter(character)) {
        missed.push(point.toString(16));
      }
    }
    expect(missed).toEqual([]);
  });

  it('leave letters of every script, marks and emoji alone', () => {
    for (const text of ['Zoë', 'Łukasz', 'محمد', 'สมชาย', '李小龍', 'Nguyễn', '😀', 'a\u0301']) {
      expect(hasHiddenCharacter(text), text).toBe(false);
    }
  });
});

describe('the full name', () => {
  it.each(realNames)('takes %s', (fullName) => {
    expect(validateBooking({ ...valid, fullName })).toEqual({});
  });

  it.each(fakeNames)('refuses $name', ({ text }) => {
    expect(validateBooking({ ...valid, fullName: text })).toEqual({ fullName: 'invalid' });
  });

  it('takes as many combining marks in a row as the table allows, and refuses one more', () => {
    const most = bookingFieldRules.fullName.maxMarksInARow;
    const marks = (count: number) => '\u0301\u0300\u0302\u0303\u0308\u030a'.slice(0, count);
    expect(validateBooking({ ...valid, fullName: `Ami${marks(most)}na` })).toEqual({});
    expect(validateBooking({ ...valid, fullName: `Ami${marks(most + 1)}na` })).toEqual({
      fullName: 'invalid',
    });
  });

  it('needs a letter, which an emoji or a digit is not', () => {
    expect(validateBooking({ ...valid, fullName: '😀 7' })).toEqual({ fullName: 'invalid' });
    expect(validateBooking({ ...valid, fullName: '😀 A' })).toEqual({});
  });
});

describe('the e-mail field', () => {
  const verdict = (email: string) => validateBooking({ ...valid, email }).email;

  it('takes a plain address', () => {
    expect(plainAddresses.filter((email) => verdict(email) !== undefined)).toEqual([]);
  });

  it('refuses what is not one plain ASCII address', () => {
    expect(unplainAddresses.filter((email) => verdict(email) !== 'invalid')).toEqual([]);
  });

  it('takes of the spellings of one inbox only the bare address, in any case', () => {
    const taken = oneInboxSpellings.filter((email) => verdict(email) === undefined);
    expect(taken).toEqual(['V@T.TEST', 'v@t.test ', 'v@t.test']);
    expect(new Set(taken.map((email) => storedValue('email', email).toLowerCase()))).toEqual(
      new Set([oneInbox]),
    );
  });
});

describe('trimField', () => {
  it('trims what JavaScript trims, and nothing else', () => {
    const differences: string[] = [];
    for (let point = 0; point <= 0xffff; point += 1) {
      if (point >= 0xd800 && point <= 0xdfff) continue;
      const text = `${String.fromCodePoint(point)}x${String.fromCodePoint(point)}`;
      if (trimField(text) !== text.trim()) differences.push(point.toString(16));
    }
    expect(differences).toEqual([]);
  });

  // With a pattern anchored at the end, this took seconds: each space of the run began a new try.
  it('trims a value with a long run of spaces inside at once', { timeout: 1_000 }, () => {
    const inside = ' '.repeat(200_000);
    expect(trimField(`\t a${inside}b \u3000`)).toBe(`a${inside}b`);
  });
});

describe('the Instagram field', () => {
  it.each([
    ['@Amina.K', 'amina.k'],
    ['amina_k', 'amina_k'],
    ['https://www.instagram.com/amina.k/', 'amina.k'],
    ['instagram.com/Amina.K?igsh=MWQ1ZGUxMzBkMA==', 'amina.k'],
    ['http://m.instagram.com/amina.k#top', 'amina.k'],
    ['instagram.com/@amina.k', 'amina.k'],
    ['https://www.instagram.com/amina.k/profilecard/?igsh=MXZwNGd2Zmdlb2Q5MQ==', 'amina.k'],
    ['@', '@'],
    ['Amina K', 'Amina K'],
    ['https://evil.example/amina.k', 'https://evil.example/amina.k'],
    ['https://www.instagram.com/amina.k/reels/', 'https://www.instagram.com/amina.k/reels/'],
  ])('stores %j as %j', (typed, stored) => {
    expect(normaliseInstagram(typed)).toBe(stored);
  });

  it('is trimmed again after the @ goes, and measured as stored, not as pasted', () => {
    expect(storedValue('instagram', ' @ amina ')).toBe('amina');
    const pasted = `https://www.instagram.com/amina.k/?igsh=${'x'.repeat(80)}`;
    expect(validateBooking({ ...valid, instagram: pasted })).toEqual({});
  });
});

describe('the phone field', () => {
  it.each([
    ['\u202a+44\u00a07700\u00a0900123\u202c', '+44 7700 900123'], // copied on iOS
    ['07700\u2011900\u2013123', '07700-900-123'], // a non-breaking hyphen and an en dash
    ['\u0660\u0667\u0667\u0660\u0660 \u0669\u0660\u0660\u0661\u0662\u0663', '07700 900123'], // Arabic-Indic
    ['\u06f0\u06f7\u06f7\u06f0\u06f0\u06f9\u06f0\u06f0\u06f1\u06f2\u06f3', '07700900123'], // Persian
    [
      '\uff0b\uff14\uff14\uff08\uff10\uff09\uff11\uff16\uff13\uff14\u3000123456',
      '+44(0)1634 123456',
    ],
    ['\u00a007700 900123\u202f', '07700 900123'], // no-break spaces at the ends go too
  ])('stores %j as %j, and takes it', (typed, stored) => {
    expect(storedValue('phone', typed)).toBe(stored);
    expect(validateBooking({ ...valid, phone: typed })).toEqual({});
  });

  it('still refuses a hidden character other than a direction mark, and a letter', () => {
    expect(validateBooking({ ...valid, phone: '07700\u200b900123' })).toEqual({ phone: 'invalid' });
    expect(validateBooking({ ...valid, phone: '07700 9OO123' })).toEqual({ phone: 'invalid' });
  });
});

describe('messageFor', () => {
  it.each([
    ['fullName', 'required', 'Full name is required'],
    ['phone', 'required', 'Phone number is required'],
    ['phone', 'invalid', 'Please enter a valid phone number'],
    ['email', 'required', 'Email is required'],
    ['email', 'invalid', 'Please enter a valid email address'],
  ] as const)('%s %s reads as the specification says', (field, failure, message) => {
    expect(messageFor(field, failure)).toBe(message);
  });
});

describe('toBookingRow', () => {
  const id = '5f1e0b8e-4f7a-4c43-9d55-3b0a1c2d3e4f';

  it('trims every value and stores an empty Instagram as null', () => {
    expect(
      toBookingRow(
        { fullName: ' Aisha Khan ', phone: ' 07700 900123 ', email: ' a@b.co ', instagram: '   ' },
        id,
      ),
    ).toEqual({
      id,
      full_name: 'Aisha Khan',
      phone: '07700 900123',
      email: 'a@b.co',
      instagram: null,
    });
  });

  it('sends the Instagram handle as the database stores it: no @, lower case', () => {
    expect(toBookingRow({ ...valid, instagram: ' @Aisha.K ' }, id).instagram).toBe('aisha.k');
  });
});
