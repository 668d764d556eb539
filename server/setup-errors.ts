import { ConfigError } from '../supabase/functions/_shared/config.ts';
import {
  DatabaseError,
  DatabaseUnavailableError,
} from '../supabase/functions/_shared/db/database.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { MigrationError } from './db/migrate.ts';
import { DatabaseRoleError } from './db/open-database.ts';
import { DataDirNotPrivateError, DataDirOwnerError } from './db/private-data-dir.ts';

/**
 * The errors of a deployer's set-up (settings, data folder, database, disk)
 * that their message explains in full, for the server's start and
 * `npx hijama` alike: printed alone, where any other error keeps its stack.
 */
const setUpErrors = [
  ConfigError,
  DataDirLockedError,
  DataDirNotPrivateError,
  DataDirOwnerError,
  DatabaseRoleError,
  DatabaseUnavailableError,
  MigrationError,
];

/**
 * What the user reads of an error their set-up caused, or of one of `own`
 * (the caller's explained errors); undefined for any other. A database short of
 * resources (class 53: a disk filled in the middle of a restore or a migration)
 * is the machine's, not a fault.
 */
export function plainMessage(
  error: unknown,
  own: readonly (abstract new (...args: never[]) => Error)[] = [],
): string | undefined {
  if ([...setUpErrors, ...own].some((type) => error instanceof type)) {
    return (error as Error).message;
  }
  if (error instanceof DatabaseError && error.code.startsWith('53')) {
    const remedy =
      error.code === '53100'
        ? 'free space on its disk'
        : 'wait a moment, or free memory or connections';
    return `The database could not do it: ${error.message} (${error.code}). ${remedy[0]!.toUpperCase()}${remedy.slice(1)}, then try again.`;
  }
  return undefined;
}
