import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * The project's Deno, for the tests that run the Edge Function under it. It is
 * not in the project's node_modules (its binary alone weighed more than a fifth
 * of them) but in tools/deno/, whose lockfile pins its version, installed by the
 * first test that needs it.
 */

const execFileAsync = promisify(execFile);
const denoFolder = fileURLToPath(new URL('../../tools/deno/', import.meta.url));

/** The `deno` binary of tools/deno/, once `installDeno()` has run. */
export const denoBinary = path.join(denoFolder, 'node_modules', '.bin', 'deno');

/**
 * Installs tools/deno/ if it is not yet, and returns its `deno`. Two test files
 * may ask at once (Vitest runs one per core): each installs into a folder of its
 * own and moves the result into place in one step, so neither ever sees half an
 * install, and the one that comes second keeps the first one's.
 */
export async function installDeno(): Promise<string> {
  if (existsSync(denoBinary)) return denoBinary;
  // Beside tools/deno/node_modules, so that the move stays on one file system.
  const staging = mkdtempSync(path.join(denoFolder, '.installing-'));
  try {
    for (const file of ['package.json', 'package-lock.json']) {
      copyFileSync(path.join(denoFolder, file), path.join(staging, file));
    }
    await execFileAsync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: staging });
    try {
      renameSync(path.join(staging, 'node_modules'), path.join(denoFolder, 'node_modules'));
    } catch (error) {
      if (!existsSync(denoBinary)) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return denoBinary;
}
