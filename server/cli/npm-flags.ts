import { shellQuote } from '../db/private-data-dir.ts';
import { commands, isCommand } from './commands.ts';

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
  const typed = scriptArgs.every((word, index) => args[index] === word)
    ? args.slice(scriptArgs.length)
    : [...args];
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
    // npm's own `yes` (npx --yes: install without asking, or yes=true in .npmrc) is
    // never taken for this command's --yes: a flag that deletes is acted on only
    // where the command reads it, and never suggested.
    .filter(
      ({ name, value }) =>
        name !== 'yes' && value !== undefined && value !== '' && !given.has(name),
    );
  if (kept.length === 0) return undefined;

  // A flag that takes a value, taken by npm as `true`, left its value behind as a stray word.
  const strays = words.filter((word) => !isCommand(word));
  const restored = kept.flatMap(({ name, option, value }) => {
    if (!option.value) return [`--${name}`];
    if (value !== 'true') return [`--${name}`, value!];
    return [`--${name}`, strays.shift() ?? option.value];
  });
  const typedCommand = words.filter(isCommand);
  const line = [...typedCommand, ...options, ...restored, ...strays].map(shellQuote).join(' ');
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
