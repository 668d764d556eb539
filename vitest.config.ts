import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'supabase/**/*.test.ts',
      'src/**/*.test.{ts,tsx}',
      'server/**/*.test.ts',
      'scripts/**/*.test.ts',
      'deploy/**/*.test.ts',
    ],
    environment: 'node',
    // One test file per core, not Vitest's default of one fewer: most database
    // and server tests spend their time waiting on a process, a socket or a
    // timer, so on a 2-core machine a single worker left a core idle (the unit
    // suite took about 11 minutes alone, file after file).
    maxWorkers: availableParallelism(),
    // A test or hook that starts a server process gives it a minute to start on
    // a busy machine (server-runs.ts), and then has its own work to do.
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});
