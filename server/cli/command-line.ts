import { parseArgs } from 'node:util';
import {
  allOptions,
  commandNames,
  commands,
  isCommand,
  ownersOf,
  type CommandName,
} from './commands.ts';
import { shellQuote } from '../db/private-data-dir.ts';
import { nearest, suggestion } from './suggestions.ts';

/**
 * Reads the command line of `hijama` with node:util's parseArgs, against the
 * commands of commands.ts, and says in one sentence what is wrong with it,
 * with the nearest valid spelling. Pure: every case is a table in the tests.
 */

/** A command line that cannot run; the message is one plain sentence. */
export class UsageError extends Error {
  name = 'UsageError';
}

/** The options given, by name: a flag is true, an option that takes a value holds it. */
export type Values = Partial<
  Record<'waiting' | 'csv' | 'json' | 'yes' | 'undo' | 'dry-run' | 'once', true> &
    Record<'by' | 'since' | 'limit' | 'older-than', string>
>;

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
        `${command} has no option ${token.rawName}.${near}` +
          (elsewhere ? ` --${elsewhere} is an option of ${ownersOf(elsewhere)}.` : ''),
      );
    }
    // `purge --older-than 12mo --older-than 1d` must not quietly take either one.
    const given = values[token.name];
    if (option.value && given !== undefined && given !== token.value) {
      throw new UsageError(
        `--${token.name} is given twice (${String(given)} and ${token.value ?? 'no value'}): give it once.`,
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
  const argument = spec.argument && rest.shift();
  if (spec.argument && argument === undefined) {
    const what = spec.argument === 'FILE' ? 'a file' : "a request's reference";
    throw new UsageError(`${command} needs ${what}: npx hijama ${command} ${spec.usage}.`);
  }
  if (rest.length > 0) {
    const extra = rest[0]!;
    const hint = isCommand(extra) ? ' Run one command at a time.' : '';
    throw new UsageError(`${command} takes no argument ${shellQuote(extra)}.${hint}`);
  }
  return { kind: 'run', command, values: values as Values, argument };
}

type Token =
  | { kind: 'positional'; value: string }
  | { kind: 'option'; name: string; rawName: string; value: string | undefined };

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
  // `--` ends the options; what follows is positional and arrives as such.
  return tokens.filter((token) => token.kind !== 'option-terminator');
}

function unknownCommand(name: string): UsageError {
  const near = suggestion(name, commandNames, '');
  return new UsageError(
    near
      ? `There is no command ${shellQuote(name)}.${near}`
      : `There is no command ${shellQuote(name)}: the commands are ${commandNames.join(', ')}.`,
  );
}
