import { describe, expect, it } from 'vitest';
import {
  csvCell,
  formatCsv,
  formatFailingWarning,
  formatJson,
  formatUnsentWarning,
  formatTable,
  type BookingRecord,
} from './bookings-output.ts';
import type { FailingNotification } from '../../supabase/functions/_shared/notifications/notification-states.ts';
import { practice } from '../../supabase/functions/_shared/content/practice.ts';
import { describeReplyTime } from './reply-deadline.ts';

const records: BookingRecord[] = [
  {
    id: '00000000-0000-4000-8000-000000000002',
    created_at: '2026-07-01T13:05:00.000Z',
    full_name: 'Smith, "Jo"',
    phone: '+44 1634 123456',
    email: 'jo@example.com',
    instagram: '@jo',
  },
  {
    id: '00000000-0000-4000-8000-000000000001',
    created_at: '2026-01-15T09:05:00.000Z',
    full_name: '=HYPERLINK("http://evil.example")',
    phone: '01634 123456',
    email: 'a@b.co',
    instagram: null,
  },
];

describe('csvCell', () => {
  it.each([
    ['plain', '"plain"'],
    ['a,b', '"a,b"'],
    ['a;b', '"a;b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\\u000alines"'],
    ['=1+1', `"'=1+1"`],
    ['+44 1634', `"'+44 1634"`],
    ['-2', `"'-2"`],
    ['@handle', `"'@handle"`],
    ['\tcmd', `"'\\u0009cmd"`],
    ['\r=cmd', `"'\\u000d=cmd"`],
    ['\u001b]8;;http://evil.example\u0007link', '"\\u001b]8;;http://evil.example\\u0007link"'],
    ['del\u007f and C1\u009b', '"del\\u007f and C1\\u009b"'],
    ['=A1,"x"', `"'=A1,""x"""`],
    // Every cell is quoted: neither a `,` nor the `;` of a European spreadsheet splits it.
    ['a;=1+1;b', '"a;=1+1;b"'],
    ['', '""'],
  ])('writes %j as %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });
});

describe('formatCsv', () => {
  it('writes a byte order mark, a header and one quoted, formula-safe line per request, with CRLF', () => {
    expect(formatCsv(records)).toBe(
      '\uFEFF"id","created_at","received_uk","full_name","phone","email","instagram"\r\n' +
        `"00000000-0000-4000-8000-000000000002","2026-07-01T13:05:00.000Z","Wednesday 1 July 2026, 14:05 BST","Smith, ""Jo""","'+44 1634 123456","jo@example.com","'@jo"\r\n` +
        `"00000000-0000-4000-8000-000000000001","2026-01-15T09:05:00.000Z","Thursday 15 January 2026, 09:05 GMT","'=HYPERLINK(""http://evil.example"")","01634 123456","a@b.co",""\r\n`,
    );
  });
});

describe('formatTable', () => {
  it('aligns the columns, with the short reference and the time in UK time', () => {
    const second = { ...records[1]!, id: 'c0ffee01-0000-4000-8000-000000000001' };
    // Neither Notified nor Answered: records from a source too old to read them.
    expect(formatTable([records[0]!, second])).toBe(
      [
        'Ref       Received (UK time)     Name                          Phone            E-mail          Instagram',
        '--------  ---------------------  ----------------------------  ---------------  --------------  ---------',
        '00000000  Wed 01 Jul 2026 14:05  Smith, "Jo"                   +44 1634 123456  jo@example.com  @jo',
        'C0FFEE01  Thu 15 Jan 2026 09:05  =HYPERLINK("http://evil.exa…  01634 123456     a@b.co',
        '',
      ].join('\n'),
    );
  });

  it('shows control characters as spaces, so stored text cannot drive the terminal', () => {
    const table = formatTable([{ ...records[0]!, full_name: 'Red\u001b[31m\nText' }]);
    expect(table).not.toContain('\u001b');
    expect(table.split('\n')[2]).toContain('Red [31m Text');
  });

  it('says when there is nothing to show', () => {
    expect(formatTable([])).toBe('No booking requests.\n');
  });

  it('shows whether each request was notified and when answered (or the time left to reply), and the failing ones with their last error', () => {
    const failing: FailingNotification = {
      bookingId: records[1]!.id,
      createdAt: new Date(records[1]!.created_at),
      attempts: 4,
      lastError: 'e-mail to practice@example.com: Invalid login:\r\n535 Authentication failed',
      reachedBy: [],
    };
    // The e-mail took it; the push keeps failing.
    const partly: FailingNotification = {
      bookingId: records[0]!.id,
      createdAt: new Date(records[0]!.created_at),
      attempts: 2,
      lastError: 'ntfy push to https://ntfy.sh: the ntfy server answered 429 Too Many Requests',
      reachedBy: ['email'],
    };
    const table = formatTable(
      [
        {
          ...records[0]!,
          notification: { state: 'sent', attempts: 1, last_error: null, reached_by: ['email'] },
          answer: { answered_at: '2026-07-01T14:00:00.000Z', channel: 'email', marked_by: 'link' },
        },
        {
          ...records[1]!,
          notification: {
            state: 'failing',
            attempts: 4,
            last_error: failing.lastError,
            reached_by: [],
          },
          answer: null,
        },
        {
          ...records[0]!,
          notification: {
            state: 'failing',
            attempts: 2,
            last_error: partly.lastError,
            reached_by: ['email'],
          },
          answer: null,
        },
      ],
      [failing, partly],
      new Date('2026-07-01T15:05:00.000Z'),
    );
    expect(table).toBe(
      [
        'Ref       Received (UK time)     Notified  Answered               Name                          Phone            E-mail          Instagram',
        '--------  ---------------------  --------  ---------------------  ----------------------------  ---------------  --------------  ---------',
        '00000000  Wed 01 Jul 2026 14:05  sent      Wed 01 Jul 2026 15:00  Smith, "Jo"                   +44 1634 123456  jo@example.com  @jo',
        '00000000  Thu 15 Jan 2026 09:05  FAILING   LATE by 166d 6h        =HYPERLINK("http://evil.exa…  01634 123456     a@b.co',
        '00000000  Wed 01 Jul 2026 14:05  partly    22h 0min left          Smith, "Jo"                   +44 1634 123456  jo@example.com  @jo',
        '',
        'Failing notifications (retried until they get through):',
        // Line breaks of the error become spaces: one line each.
        '  00000000  received Thu 15 Jan 2026 09:05, 4 attempts: e-mail to practice@example.com: Invalid login:  535 Authentication failed',
        '  00000000  received Wed 01 Jul 2026 14:05, reached you by e-mail, 2 attempts: ntfy push to https://ntfy.sh: the ntfy server answered 429 Too Many Requests',
        '',
      ].join('\n'),
    );
  });

  it.each([
    ['pending', 'pending'],
    ['none', 'never'],
  ] as const)('reads %s as "%s"', (state, word) => {
    const table = formatTable([
      { ...records[0]!, notification: { state, attempts: 0, last_error: null, reached_by: [] } },
    ]);
    expect(table.split('\n')[2]).toContain(`  ${word}  `);
  });
});

describe('describeReplyTime, the column of the time left to reply', () => {
  const receivedAt = new Date('2026-11-20T09:00:00Z');
  const afterPromise = (minutes: number) =>
    new Date(receivedAt.getTime() + (practice.replyWithinHours * 60 + minutes) * 60_000);

  it.each([
    [-(practice.replyWithinHours * 60 - 1), `${practice.replyWithinHours - 1}h 59min left`],
    [-42, '42min left'],
    [-0.5, '0min left'],
    [0, 'LATE by 0min'],
    [62, 'LATE by 1h 2min'],
    [47 * 60 + 59, 'LATE by 47h 59min'],
    [50 * 60, 'LATE by 2d 2h'],
  ])('%d minutes after the promised reply: "%s"', (minutes, shown) => {
    expect(describeReplyTime(receivedAt, afterPromise(minutes))).toBe(shown);
  });
});

describe('formatFailingWarning', () => {
  it('says nothing when no notification fails', () => {
    expect(formatFailingWarning([])).toBeUndefined();
  });

  it('names the first 50 of a flood and counts the rest', () => {
    const flood = Array.from({ length: 30_000 }, (_, index) => ({
      bookingId: `${index.toString(16).padStart(8, '0')}-0000-4000-8000-000000000001`,
      createdAt: new Date('2026-07-01T10:00:00.000Z'),
      attempts: 9,
      lastError: 'the webhook answered 500',
      reachedBy: [],
    }));
    const warning = formatFailingWarning(flood)!;
    expect(warning).toMatch(
      /^Warning: 30,000 notifications are failing: .* 00000031 and 29,950 more\. /,
    );
    expect(warning).not.toContain('00000032');
  });

  it('names the requests and the latest error, and where to read what to do', () => {
    expect(
      formatFailingWarning([
        {
          bookingId: '5f0c2a8e-0000-4000-8000-000000000001',
          createdAt: new Date('2026-07-01T10:00:00.000Z'),
          attempts: 9,
          lastError: 'older error',
          reachedBy: [],
        },
        {
          bookingId: '1a2b3c4d-0000-4000-8000-000000000002',
          createdAt: new Date('2026-07-01T12:00:00.000Z'),
          attempts: 2,
          lastError: 'connect ECONNREFUSED 127.0.0.1:587',
          reachedBy: [],
        },
        {
          bookingId: '9e8d7c6b-0000-4000-8000-000000000003',
          createdAt: new Date('2026-07-01T11:00:00.000Z'),
          attempts: 3,
          lastError: 'the webhook answered 500',
          reachedBy: ['email', 'ntfy'],
        },
      ]),
    ).toBe(
      'Warning: 3 notifications are failing: the practice has not been told of booking requests 5F0C2A8E, 1A2B3C4D; ' +
        'booking request 9E8D7C6B reached the practice, but not by every channel. ' +
        'Last error: connect ECONNREFUSED 127.0.0.1:587. ' +
        'docs/notifications.md, \u201cWhen a notification fails\u201d, says what to check.',
    );
  });
});

describe('formatUnsentWarning', () => {
  const now = new Date('2026-07-01T14:00:00.000Z');
  const pending = (minutesAgo: number, attempts = 0): BookingRecord => ({
    ...records[0]!,
    created_at: new Date(now.getTime() - minutesAgo * 60_000).toISOString(),
    notification: { state: 'pending', attempts, last_error: null, reached_by: [] },
  });

  it('warns of requests that waited more than 30 minutes with no attempt to tell the practice', () => {
    expect(formatUnsentWarning([pending(31), pending(45)], now)).toMatch(
      /^Warning: 2 booking requests have waited more than 30 minutes with no attempt to tell the practice: no notification channel is set \(SMTP_URL .*\), or nothing that sends is running/,
    );
  });

  it.each([
    ['one just arrived (or waiting for its flood digest)', pending(29)],
    ['one being tried', pending(31, 1)],
    [
      'one sent',
      { ...pending(31), notification: { state: 'sent', attempts: 1, last_error: null } },
    ],
    ['one from before notifications', { ...pending(31), notification: undefined }],
  ] as [string, BookingRecord][])('says nothing of %s', (_, record) => {
    expect(formatUnsentWarning([record], now)).toBeUndefined();
  });
});

describe('output of a stored row with control characters', () => {
  // Rows stored under earlier rules, or with the service key, may hold any of them.
  const hostile: BookingRecord = {
    ...records[0]!,
    full_name: 'Red\u001b[31m\u0007\u007f\u0085\u009b2J',
    instagram: '\u001b]8;;http://evil.example\u001b\\x',
  };
  // eslint-disable-next-line no-control-regex -- looking for control characters is the point
  const rawControl = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

  it('leaves none raw in JSON, which still reads back as the stored text', () => {
    const json = formatJson([hostile]);
    expect(json.replaceAll('\n', '')).not.toMatch(rawControl);
    expect(JSON.parse(json)).toEqual([hostile]);
    expect(formatJson([])).toBe('[]\n');
  });
});
