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
