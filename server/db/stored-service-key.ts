import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The service key the server makes for itself when SERVICE_ROLE_KEY is unset.
 *
 * `npx hijama` reads the requests through the running server while the server
 * holds the embedded database, and that needs the service key. So that the
 * two work together with no setting, the server makes a random key at its
 * first start and keeps it in its data folder, readable by its user alone
 * (0600, in a folder that is 0700); the command, run by the same user with the
 * same DATA_DIR, reads it there. A SERVICE_ROLE_KEY set in the environment
 * wins on both sides.
 */

export const storedServiceKeyFileName = 'service-role-key';

export function storedServiceKeyPath(dataDir: string): string {
  return path.join(dataDir, storedServiceKeyFileName);
}

/** The stored key; undefined when there is none. Throws when the file cannot be read (another user's). */
export function readStoredServiceKey(dataDir: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(storedServiceKeyPath(dataDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const key = text.trim();
  return key === '' ? undefined : key;
}

/** The stored key, made now (`created`) when there is none yet. */
export function ensureStoredServiceKey(dataDir: string): { key: string; created: boolean } {
  const stored = readStoredServiceKey(dataDir);
  if (stored !== undefined) return { key: stored, created: false };
  const key = randomBytes(32).toString('hex');
  // `wx`: never replaces a key another process wrote in the meantime.
  writeFileSync(storedServiceKeyPath(dataDir), `${key}\n`, { mode: 0o600, flag: 'wx' });
  return { key, created: true };
}
