import { commandNames, commands, type CommandName } from './commands.ts';

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
      'embedded one in DATA_DIR (default ./data), on the socket the running server',
      'shares it on in that folder while it holds it. Settings come from the',
      'environment and the .env file of the current folder, as for the server.',
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
