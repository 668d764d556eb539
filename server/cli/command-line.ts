import { parseArgs } from 'node:util';
import { answerChannels } from '../db/booking-answers.ts';
import { replyWithinHours } from './reply-deadline.ts';

/**
 * The command line of `hijama`: its subcommands, their options and help, how
 * arguments are read, the nearest spelling of a mistyped name, and the flags
 * npm kept for itself. Pure: no I/O, so every case is a table in the tests.
 */

const commandNames = [
  'list',
  'answer',
  'export',
  'purge',
  'notify',
  'backup',
  'restore',
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
  '(15min, 12h, 7d, 2w, 6mo, 1y), or a day (23/11/2026 or 2026-11-23, from midnight UK time)';

const commands: Record<CommandName, CommandSpec> = {
  list: {
    summary: 'the most recent booking requests, newest first (the default)',
    usage: '[--waiting] [--since <when>] [--limit <n>|all] [--csv | --json]',
    options: {
      waiting: {
        help: `only the requests not yet answered, oldest first, each with the time left to reply (${replyWithinHours} hours from its arrival) or how late it is`,
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
    summary: 'marks a booking request answered',
    usage: 'REF [--by <channel>]',
    argument: 'REF',
    options: {
      by: {
        value: '<channel>',
        help: `how you answered: ${answerChannels.join(', ')}`,
      },
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
        help: 'd, w, m or y: 30d, 8w, 12m, 2y (months are calendar months)',
      },
      yes: { help: 'delete without asking' },
      'dry-run': { help: 'only show what would be deleted' },
    },
    details:
      'Shows the requests it would delete first. On a terminal it then asks you to\n' +
      'type "delete"; elsewhere (cron, a script, a pipe) it deletes only with --yes.',
  },
  notify: {
    summary: 'sends the pending notifications of booking requests',
    usage: '[--once]',
    options: {
      once: { help: 'send what is due and exit (for cron); exit code 1 if a send failed' },
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
      'A consistent copy, taken while the server runs (through it, with\n' +
      'SERVICE_ROLE_KEY) or not. The file is JSON, readable only by you (mode 600),\n' +
      'and holds personal data. It is never overwritten: name it by date, e.g.\n' +
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
  help: {
    summary: "this help, or a command's: npx hijama help purge",
    usage: '[command]',
    options: {},
  },
};

/** Every option name, of any command. */
const allOptions = [
  ...new Set(Object.values(commands).flatMap((spec) => Object.keys(spec.options))),
];

/** A command line that cannot run; the message is one plain sentence. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type Values = {
  waiting?: boolean;
  by?: string;
  since?: string;
  limit?: string;
  csv?: boolean;
  json?: boolean;
  'older-than'?: string;
  yes?: boolean;
  'dry-run'?: boolean;
  once?: boolean;
};

export type CommandLine =
  | { kind: 'help'; command: CommandName | undefined }
  | {
      kind: 'run';
      command: Exclude<CommandName, 'help'>;
      values: Values;
      /** The file of backup and restore, the reference of answer. */
      argument: string | undefined;
    };

/** Reads the arguments after `hijama`; throws UsageError with the nearest valid spelling. */
export function parseCommandLine(args: readonly string[]): CommandLine {
  const tokens = tokenize(args);
  const positionals = tokens.filter((token) => token.kind === 'positional').map((t) => t.value);
  const first = positionals[0];
  // A first word that is no command: a mistyped command, or the value of a mistyped option
  // (`--sinse 7d`), which is then the mistake to report.
  if (first !== undefined && !isCommand(first) && suggestion(first, commandNames, '') !== '') {
    throw unknownCommand(first);
  }
  const command: CommandName = first !== undefined && isCommand(first) ? first : 'list';
  const spec = commands[command];
  if (command === 'help') {
    const topic = positionals[1];
    if (topic !== undefined && !isCommand(topic)) throw unknownCommand(topic);
    return { kind: 'help', command: topic };
  }
  const wantsHelp = tokens.some((token) => token.kind === 'option' && token.name === 'help');
  if (wantsHelp) return { kind: 'help', command: first === command ? command : undefined };

  const values: Record<string, string | boolean> = {};
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const option = spec.options[token.name];
    if (!option) {
      if (allOptions.includes(token.name)) {
        throw new UsageError(
          `--${token.name} is an option of ${ownersOf(token.name)}, not of ${command}.`,
        );
      }
      const near = suggestion(token.name, Object.keys(spec.options), '--');
      const elsewhere = near ? undefined : nearest(token.name, allOptions);
      throw new UsageError(
        `${command} has no option ${token.raw}.${near}` +
          (elsewhere ? ` --${elsewhere} is an option of ${ownersOf(elsewhere)}.` : ''),
      );
    }
    if (option.value) {
      if (token.value === undefined || token.value === '') {
        throw new UsageError(`--${token.name} needs a value: --${token.name} ${option.value}.`);
      }
      values[token.name] = token.value;
    } else {
      if (token.value !== undefined) {
        throw new UsageError(
          `--${token.name} takes no value (got --${token.name}=${token.value}).`,
        );
      }
      values[token.name] = true;
    }
  }

  if (first !== undefined && !isCommand(first)) throw unknownCommand(first);
  const rest = positionals.slice(1);
  let argument: string | undefined;
  if (spec.argument) {
    argument = rest.shift();
    if (argument === undefined) {
      const what = spec.argument === 'FILE' ? 'a file' : "a request's reference";
      throw new UsageError(`${command} needs ${what}: npx hijama ${command} ${spec.usage}.`);
    }
  }
  if (rest.length > 0) {
    const extra = rest[0]!;
    const hint = isCommand(extra) ? ' Run one command at a time.' : '';
    throw new UsageError(`${command} takes no argument ${quote(extra)}.${hint}`);
  }
  return { kind: 'run', command, values: values as Values, argument };
}

type Token =
  | { kind: 'positional'; value: string }
  | { kind: 'option'; name: string; raw: string; value: string | undefined };

/**
 * node:util's parseArgs, told every option of every command so that a value
 * is read after the options that take one; unknown options are kept as they
 * were typed, for a plain message and a suggestion.
 */
function tokenize(args: readonly string[]): Token[] {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const spec of Object.values(commands)) {
    for (const [name, option] of Object.entries(spec.options)) {
      options[name] = { type: option.value ? 'string' : 'boolean' };
    }
  }
  const { tokens } = parseArgs({
    args: [...args],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const result: Token[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') result.push({ kind: 'positional', value: token.value });
    else if (token.kind === 'option') {
      result.push({
        kind: 'option',
        name: token.name,
        raw: token.rawName,
        value: token.value,
      });
    }
    // `--` ends the options; what follows is positional and arrives as such.
  }
  return result;
}

function isCommand(name: string): name is CommandName {
  return (commandNames as readonly string[]).includes(name);
}

function unknownCommand(name: string): UsageError {
  const near = suggestion(name, commandNames, '');
  return new UsageError(
    near
      ? `There is no command ${quote(name)}.${near}`
      : `There is no command ${quote(name)}: the commands are ${commandNames.join(', ')}.`,
  );
}

/** " Did you mean --since?" for the nearest candidate within a couple of typing slips, else "". */
function suggestion(typed: string, candidates: readonly string[], prefix: string): string {
  const name = nearest(typed, candidates);
  return name === undefined ? '' : ` Did you mean ${prefix}${name}?`;
}

/** The candidate a couple of typing slips away (or that the word begins), if any. */
function nearest(typed: string, candidates: readonly string[]): string | undefined {
  const word = typed.replace(/^-+/, '').toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = name.startsWith(word) && word.length >= 3 ? 1 : editDistance(word, name);
    if (!best || distance < best.distance) best = { name, distance };
  }
  const allowed = Math.max(1, Math.min(3, Math.floor(word.length / 3)));
  return best && best.distance <= allowed ? best.name : undefined;
}

/** "purge", "list and export": the commands that take an option. */
function ownersOf(option: string): string {
  const owners = commandNames.filter((name) => option in commands[name].options);
  return owners.length === 1
    ? owners[0]!
    : `${owners.slice(0, -1).join(', ')} and ${owners.at(-1)}`;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, d[i - 2]![j - 2]! + 1);
      }
      d[i]![j] = value;
    }
  }
  return d[a.length]![b.length]!;
}

/** A word as the shell would need it typed. */
function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * npm reads the flags before `--` as its own: `npm run bookings --dry-run --
 * purge` runs the command without --dry-run and sets npm_config_dry_run=true
 * instead; `--since 7d` becomes npm_config_since=true and a stray `7d`. When
 * npm started this command and kept one of its flags, the command must not act
 * on what is left: this returns the sentence to print, with the command line
 * to type. Undefined when nothing was kept.
 */
export function flagsKeptByNpm(
  args: readonly string[],
  env: Record<string, string | undefined>,
): string | undefined {
  if (env.npm_command === undefined) return undefined;
  // The arguments the script itself adds (`npm run notify` runs `hijama.js notify`).
  const scriptArgs = scriptArguments(env.npm_lifecycle_script);
  const typed = startsWith(args, scriptArgs) ? args.slice(scriptArgs.length) : [...args];
  const options: string[] = [];
  const words: string[] = [];
  for (let index = 0; index < typed.length; index++) {
    const arg = typed[index]!;
    if (!arg.startsWith('-')) words.push(arg);
    else {
      options.push(arg);
      if (takesValue(arg) && index + 1 < typed.length) options.push(typed[++index]!);
    }
  }
  const given = new Set(options.filter((arg) => arg.startsWith('--')).map(optionName));
  const command = [...scriptArgs, ...words].find(isCommand) ?? 'list';
  const kept = Object.entries(commands[command].options)
    .map(([name, option]) => ({
      name,
      option,
      value: env[`npm_config_${name.replaceAll('-', '_')}`],
    }))
    .filter(({ name, value }) => value !== undefined && value !== '' && !given.has(name));
  if (kept.length === 0) return undefined;

  // A flag that takes a value, taken by npm as `true`, left its value behind as a stray word.
  const strays = words.filter((word) => !isCommand(word));
  const restored = kept.flatMap(({ name, option, value }) => {
    if (!option.value) return [`--${name}`];
    if (value !== 'true') return [`--${name}`, value!];
    return [`--${name}`, strays.shift() ?? option.value];
  });
  const typedCommand = words.filter(isCommand);
  const line = [...typedCommand, ...options, ...restored, ...strays].map(quote).join(' ');
  const prefix =
    env.npm_command === 'exec'
      ? 'npx hijama'
      : `npm run ${env.npm_lifecycle_event ?? 'bookings'} --`;
  const names = kept.map(({ name }) => `--${name}`).join(' and ');
  return (
    `npm took ${names} for itself, so this command did not receive ${kept.length === 1 ? 'it' : 'them'} and did nothing; ` +
    `type the command's flags after \`${prefix}\`:\n  ${prefix} ${line}`.trimEnd() +
    '\n'
  );
}

function optionName(arg: string): string {
  return arg.slice(2).split('=')[0]!;
}

function takesValue(word: string): boolean {
  if (!word.startsWith('--') || word.includes('=')) return false;
  const name = optionName(word);
  return Object.values(commands).some((spec) => spec.options[name]?.value !== undefined);
}

/** `node dist-server/server/cli/hijama.js notify` → ['notify']. */
function scriptArguments(script: string | undefined): string[] {
  if (!script) return [];
  const words = script.trim().split(/\s+/);
  const entry = words.findIndex((word) => /hijama(\.[cm]?[jt]s)?$/.test(word));
  return entry === -1 ? [] : words.slice(entry + 1);
}

function startsWith(args: readonly string[], prefix: readonly string[]): boolean {
  return prefix.every((word, index) => args[index] === word);
}

/** The whole help, or one command's. */
export function helpText(command?: CommandName): string {
  if (command === undefined || command === 'help') {
    const width = Math.max(...commandNames.map((name) => name.length));
    return [
      'Usage: npx hijama <command> [options]     (from the project folder)',
      '       npm run bookings -- <command> [options]',
      '',
      ...commandNames.map((name) => `  ${name.padEnd(width)}  ${commands[name].summary}`),
      '',
      "npx hijama <command> --help shows a command's options.",
      '',
      'The database: DATABASE_URL when set (PostgreSQL or Supabase), otherwise the',
      'embedded one in DATA_DIR (default ./data), read through the running server',
      '(with SERVICE_ROLE_KEY) while it holds it. Settings come from the environment',
      'and the .env file of the current folder, as for the server.',
      '',
    ].join('\n');
  }
  const spec = commands[command];
  const names = Object.entries(spec.options).map(
    ([name, option]) => `--${name}${option.value ? ` ${option.value}` : ''}`,
  );
  const width = Math.max(0, ...names.map((name) => name.length));
  const lines = [
    `Usage: npx hijama ${command} ${spec.usage}`.trimEnd(),
    '',
    spec.summary.charAt(0).toUpperCase() + spec.summary.slice(1) + '.',
  ];
  if (names.length > 0) {
    lines.push('');
    Object.values(spec.options).forEach((option, index) => {
      lines.push(...wrap(`  ${names[index]!.padEnd(width)}  `, option.help));
    });
  }
  if (spec.details) lines.push('', spec.details);
  lines.push('');
  return lines.join('\n');
}

/** The help of an option, wrapped at 80 columns under its own start. */
function wrap(head: string, text: string): string[] {
  const lines: string[] = [];
  let line = head;
  for (const word of text.split(' ')) {
    if (line.length + word.length + 1 > 80 && line.trim() !== head.trim()) {
      lines.push(line.trimEnd());
      line = ' '.repeat(head.length);
    }
    line += `${word} `;
  }
  lines.push(line.trimEnd());
  return lines;
}
