import { answerChannels } from '../../supabase/functions/_shared/db/booking-answers.ts';
import { practice } from '../../supabase/functions/_shared/content/practice.ts';

/**
 * The commands of `hijama`: their names, options, usage and help texts, the
 * one table that the parser (command-line.ts), the help (help-text.ts) and
 * the recovery of npm's flags (npm-flags.ts) read.
 */

export const commandNames = [
  'list',
  'answer',
  'export',
  'purge',
  'delete',
  'notify',
  'backup',
  'restore',
  'check',
  'help',
] as const;

export type CommandName = (typeof commandNames)[number];

interface OptionSpec {
  /** A string option takes a value; its placeholder, e.g. `<when>`. */
  value?: string;
  help: string;
}

interface CommandSpec {
  /** One line, for the list of commands. */
  summary: string;
  /** What follows the command's name in its usage line. */
  usage: string;
  /** The one argument it takes, if any: a file, or a request's reference. */
  argument?: 'FILE' | 'REF';
  options: Record<string, OptionSpec>;
  /** More lines for `--help`. */
  details?: string;
}

const whenHelp =
  'only those received since: a number of minutes, hours, days, weeks, months or years ' +
  '(15min, 12h, 7d, 2w, 6mo, 1y), a day (23/11/2026 or 2026-11-23, from midnight UK time), ' +
  'or a date and time with its offset (2026-11-23T09:00:00Z)';

export const commands: Record<CommandName, CommandSpec> = {
  list: {
    summary: 'the most recent booking requests, newest first (the default)',
    usage: '[--waiting] [--since <when>] [--limit <n>|all] [--csv | --json]',
    options: {
      waiting: {
        help: `only the requests not yet answered, oldest first, each with the time left to reply (${practice.replyWithinHours} hours from its arrival) or how late it is`,
      },
      since: { value: '<when>', help: whenHelp },
      limit: { value: '<n>|all', help: 'at most n requests (default 100), or all' },
      csv: { help: 'CSV for a spreadsheet instead of a table' },
      json: { help: 'JSON instead of a table' },
    },
    details:
      'The Answered column says when each request was answered (npx hijama answer,\n' +
      'or the link in its e-mail), or how long is left to reply.',
  },
  answer: {
    summary: 'marks a booking request answered, or takes the mark back',
    usage: 'REF [--by <channel> | --undo]',
    argument: 'REF',
    options: {
      by: {
        value: '<channel>',
        help: `how you answered: ${answerChannels.join(', ')}`,
      },
      undo: { help: 'take back the mark (one made by mistake): the request waits again' },
    },
    details:
      "REF is the request's reference, as in its e-mail and npx hijama list\n" +
      '(1A2B3C4D, any case), or its full id. A request already answered stays as it was.',
  },
  export: {
    summary: 'every booking request as CSV or JSON, oldest first',
    usage: '[--csv | --json] [--since <when>]',
    options: {
      csv: { help: 'CSV for a spreadsheet (the default); phone numbers and formulas kept as text' },
      json: { help: 'JSON, every column' },
      since: { value: '<when>', help: whenHelp },
    },
    details:
      'Writes to the standard output: npx hijama export --csv > bookings.csv\n' +
      'The file holds personal data: keep it where only the practice can read it.',
  },
  purge: {
    summary: 'deletes the requests older than a period, with their notifications',
    usage: '--older-than <period> [--yes | --dry-run]',
    options: {
      'older-than': {
        value: '<period>',
        help: 'd, w, mo or y: 30d, 8w, 12mo, 2y (months are calendar months)',
      },
      yes: { help: 'delete without asking' },
      'dry-run': { help: 'only show what would be deleted' },
    },
    details:
      'Shows the requests it would delete first. On a terminal it then asks you to\n' +
      'type "delete"; elsewhere (cron, a script, a pipe) it deletes only with --yes.',
  },
  delete: {
    summary: 'erases one booking request and every record about it',
    usage: 'REF [--yes]',
    argument: 'REF',
    options: {
      yes: { help: 'delete it; without --yes, only show what would be deleted' },
    },
    details:
      'For a request to erase personal data (UK GDPR), a test booking or spam. Goes\n' +
      'with it: its notification, answer, reminder and acknowledgement, and its id in\n' +
      'flood digests and alerts. Backups made before keep it until they are deleted.',
  },
  notify: {
    summary: 'sends the pending notifications of booking requests',
    usage: '[--once]',
    options: {
      once: {
        help: 'send what is due and exit (for cron); exit code 1 if a send or a step failed',
      },
    },
    details:
      'Uses SMTP_URL, NOTIFY_TO and NOTIFY_FROM, NOTIFY_WEBHOOK_URL or NOTIFY_NTFY_URL;\n' +
      'without --once it keeps checking until stopped. A running server on the embedded\n' +
      'database sends its notifications itself: this is for a database the server does\n' +
      'not run on.',
  },
  backup: {
    summary: 'writes the bookings, notifications and settings to one file',
    usage: 'FILE',
    argument: 'FILE',
    options: {},
    details:
      'A consistent copy, taken while the server runs (on the socket it shares\n' +
      'its database on) or not. The file is JSON, readable only by you (mode\n' +
      '600), and holds personal data. It is never overwritten: name it by date, e.g.\n' +
      'npx hijama backup backups/hijama-$(date +%F).json',
  },
  restore: {
    summary: 'loads a backup into an empty database (DATA_DIR or DATABASE_URL)',
    usage: 'FILE',
    argument: 'FILE',
    options: {},
    details:
      'Creates the tables (supabase/migrations), then loads the backup. Refuses a\n' +
      'database that already holds booking requests. Moves a practice between the\n' +
      'embedded database, PostgreSQL and Supabase: back up from one, restore into the other.',
  },
  check: {
    summary: 'what would hurt a launch: run it before going live',
    usage: '',
    options: {},
    details:
      'Checks the settings, sends a test e-mail to NOTIFY_TO and a test push or webhook\n' +
      'call (no booking is made), lists the placeholders still in the content\n' +
      '(supabase/functions/_shared/content/practice.ts, SITE_URL) and the SAMPLE reviews\n' +
      '(src/content/reviews.ts), and checks that .env and the data directory are\n' +
      'private. Exit code 1 while anything is left to fix.',
  },
  help: {
    summary: "this help, or a command's: npx hijama help purge",
    usage: '[command]',
    options: {},
  },
};

/** Every option name, of any command. */
export const allOptions = [
  ...new Set(Object.values(commands).flatMap((spec) => Object.keys(spec.options))),
];

export function isCommand(name: string): name is CommandName {
  return (commandNames as readonly string[]).includes(name);
}

/** "purge", "list and export": the commands that take an option. */
export function ownersOf(option: string): string {
  const owners = commandNames.filter((name) => option in commands[name].options);
  return owners.length === 1
    ? owners[0]!
    : `${owners.slice(0, -1).join(', ')} and ${owners.at(-1)}`;
}
