import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The port of the server the browser tests start (playwright.config.ts). */
export const e2ePort = Number(process.env.E2E_PORT ?? 4310);

/** Its data folder, new for every run: the tests read back what was stored there. */
export const e2eDataDir = join(tmpdir(), `hijama-e2e-${e2ePort}`);
