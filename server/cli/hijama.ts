#!/usr/bin/env node
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
process.stdout.on('error', (error) => {
  if (!isClosedPipe(error)) throw error;
  readerGone = true;
});

const code = await runHijama(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  out: (text) =>
    new Promise((resolve, reject) => {
      if (readerGone) return resolve();
      process.stdout.write(text, (error) =>
        !error || isClosedPipe(error) ? resolve() : reject(error),
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
