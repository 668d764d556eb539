#!/usr/bin/env node
import { createInterface } from 'node:readline/promises';
import { runHijama } from './hijama-command.ts';

/** The `hijama` process (`npx hijama`, `npm run bookings`): see hijama-command.ts. */

// What the command writes (backups, a restored database, the embedded
// database's files when it opens it itself) is its user's alone: personal data.
process.umask(0o077);

// A question needs someone to read it and to answer: both ends a terminal.
const terminal = process.stdin.isTTY && process.stderr.isTTY;

const code = await runHijama(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  out: (text) =>
    new Promise((resolve, reject) =>
      process.stdout.write(text, (error) => (error ? reject(error) : resolve())),
    ),
  err: (text) => process.stderr.write(text),
  untilStopped: () =>
    new Promise((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    }),
  ask: terminal
    ? async (question) => {
        const prompt = createInterface({ input: process.stdin, output: process.stderr });
        try {
          return await prompt.question(question);
        } finally {
          prompt.close();
        }
      }
    : undefined,
});
process.exit(code);
