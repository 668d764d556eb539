import type { CliIo } from '../cli/cli-io.ts';
import { runHijama } from '../cli/hijama-command.ts';

export interface CommandRunOptions {
  /** The whole environment (the .env file of `cwd` fills in what it lacks). */
  env?: Record<string, string>;
  cwd: string;
  /** Plays a person at a terminal; without it there is none, as under cron. */
  answer?: (question: string) => string;
}

/**
 * Runs `action` (by default `npx hijama args`) in this process, with what it
 * prints captured: quicker than a process of its own, which the tests of the
 * command's start keep for what only a process shows.
 */
export async function runCommand(
  args: string[],
  options: CommandRunOptions,
  action: (io: CliIo) => Promise<number> = (io) => runHijama(args, io),
) {
  // What it printed, and what it asked on the terminal, in order.
  const printed = { stdout: '', stderr: '', questions: [] as string[] };
  const { answer } = options;
  const code = await action({
    env: options.env ?? {},
    cwd: options.cwd,
    out: async (text) => void (printed.stdout += text),
    err: (text) => void (printed.stderr += text),
    untilStopped: () => new Promise(() => {}),
    ask:
      answer &&
      (async (question) => {
        printed.questions.push(question);
        return answer(question);
      }),
  });
  return { code, ...printed };
}
