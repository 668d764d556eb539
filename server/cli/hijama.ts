#!/usr/bin/env node
import { CliError } from './bookings-source.ts';
import { askOnTerminal } from './cli-io.ts';
import { runHijama } from './hijama-command.ts';

/** The `hijama` process (`npx hijama`, `npm run bookings`): see hijama-command.ts. */

// What the command writes (backups, a restored database, the embedded
// database's files when it opens it itself) is its user's alone: personal data.
process.umask(0o077);

// A question needs someone to read it and to answer: both ends a terminal.
const terminal = process.stdin.isTTY && process.stderr.isTTY;

/** Set once the reader of the output has gone (`| head`, `less` left early): nothing more is written. */
let readerGone = false;
const isClosedPipe = (error: unknown) => (error as NodeJS.ErrnoException).code === 'EPIPE';
// Any other failure to write (a full disk under `export > file`) reaches the
// write's callback too, which reports it as a plain sentence.
process.stdout.on('error', (error) => {
  if (isClosedPipe(error)) readerGone = true;
});

/** `export > bookings.csv` on a full disk, or to a device gone: what to do, not a stack. */
function outputFailed(error: NodeJS.ErrnoException): CliError {
  const remedy =
    error.code === 'ENOSPC' || error.code === 'EDQUOT'
      ? 'Free space on that disk, or write the output to another one, then run the command again.'
      : 'Write the output somewhere else, then run the command again.';
  return new CliError(
    `Could not write the output: ${error.message}. What was written is incomplete. ${remedy}`,
  );
}

const code = await runHijama(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  out: (text) =>
    new Promise((resolve, reject) => {
      if (readerGone) return resolve();
      process.stdout.write(text, (error) =>
        !error || isClosedPipe(error) ? resolve() : reject(outputFailed(error)),
      );
    }),
  err: (text) => process.stderr.write(text),
  untilStopped: () =>
    new Promise((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    }),
  ask: terminal ? askOnTerminal(process.stdin, process.stderr) : undefined,
});
process.exit(code);
