import { defineConfig } from '@playwright/test';
import { e2eDataDir, e2ePort } from './e2e/constants.ts';
import { chromiumArgs, chromiumPath } from './scripts/lib/chromium.ts';

// E2E_BASE_URL runs the tests against a server that is already running.
const external = process.env.E2E_BASE_URL;
const baseURL = external ?? `http://127.0.0.1:${e2ePort}`;

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: process.env.CI ? 'line' : 'list',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
    trace: 'off',
  },
  projects: [
    { name: 'browser', testIgnore: /responsiveness\.spec\.ts$/ },
    // Timed at 4x CPU slowdown: run alone, once the rest is done, so that no
    // other test's page shares the machine's cores with it.
    { name: 'timing', testMatch: /responsiveness\.spec\.ts$/, dependencies: ['browser'] },
  ],
  webServer: external
    ? undefined
    : {
        // A fresh embedded database for every run: the tests count the rows they store.
        // Copied from a migrated one (pglite-template.ts): the server's first start,
        // which migrates, takes seconds more, and no test can start meanwhile.
        command: `rm -rf "${e2eDataDir}" && node --import tsx -e "import('./server/testing/pglite-template.ts').then((m) => m.seedPglite(process.argv[1]))" "${e2eDataDir}" && node dist-server/server/index.js`,
        url: baseURL,
        reuseExistingServer: false,
        timeout: 60_000,
        env: {
          PORT: String(e2ePort),
          HOST: '127.0.0.1',
          DATA_DIR: e2eDataDir,
          // Every test books from one address within a minute; the per-address
          // and whole-site limits would refuse them. The per-e-mail limit stays on.
          RATE_LIMIT_PER_MINUTE: '0',
          BOOKING_LIMIT_PER_CLIENT_PER_HOUR: '0',
          BOOKING_LIMIT_SITE_PER_HOUR: '0',
          BOOKING_LIMIT_PER_EMAIL_PER_HOUR: '3',
        },
        stdout: 'ignore',
        stderr: 'pipe',
      },
});
