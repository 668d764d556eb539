import { createInterface } from 'node:readline/promises';
import { readDotEnv } from '../settings.ts';

/** What a command sees of its process, so that tests can run it in theirs. */
export interface CliIo {
  /** The environment; the .env file of `cwd` fills in what it lacks. */
  env: Record<string, string | undefined>;
  cwd: string;
  /** Results (the table, CSV, JSON): resolves once written. */
  out(text: string): Promise<void>;
  /** Messages and summaries. */
  err(text: string): void;
  /** Resolves with the signal's name when the user asks a long-running command to stop. */
  untilStopped(): Promise<string>;
  /** Asks on the terminal and resolves with the answer; absent when there is no terminal to ask on. */
  ask?: (question: string) => Promise<string>;
}

/** Variables already set in the environment win over the file, as for the server. */
export function withDotEnv(io: Pick<CliIo, 'cwd' | 'env'>): Record<string, string | undefined> {
  return { ...readDotEnv(io.cwd), ...io.env };
}

/**
 * `CliIo.ask` on a terminal: the answer typed on `input`, the question shown on
 * `output`. Ctrl+C or Ctrl+D answers nothing, which no command takes for a yes.
 */
export function askOnTerminal(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): (question: string) => Promise<string> {
  return async (question) => {
    const prompt = createInterface({ input, output, terminal: true });
    try {
      return await prompt.question(question);
    } catch (error) {
      if ((error as Error).name !== 'AbortError') throw error;
      output.write('\n');
      return '';
    } finally {
      prompt.close();
    }
  };
}
