import type { Backup } from '../db/backup.ts';
import {
  functionNotFound,
  functionPermissionDenied,
  unsupportedMethod,
  type ApiRole,
} from '../http/api-errors.ts';
import { sendJson } from '../http/send-json.ts';

/**
 * `GET /rest/v1/rpc/backup` (supabase/functions/_shared/core/api-defaults.ts, backupPath), on the
 * project's own server only: a consistent backup of every table, for the
 * service key. It is how `hijama backup` reads the embedded database while the
 * server holds it (one process at a time may open it).
 */

export interface BackupRequest {
  method: string;
  role: ApiRole;
  res: Parameters<typeof sendJson>[0];
  /** CORS headers for every answer. */
  headers: Record<string, string>;
}

export async function sendBackup(
  { method, role, res, headers }: BackupRequest,
  readBackup: (() => Promise<Backup>) | undefined,
) {
  if (!readBackup) {
    throw functionNotFound('backup without parameters');
  }
  if (role !== 'service_role') {
    throw functionPermissionDenied(role, 'backup');
  }
  if (method !== 'GET' && method !== 'HEAD') {
    throw unsupportedMethod(method, 'OPTIONS, GET, HEAD');
  }
  const backup = await readBackup();
  const day = backup.createdAt.slice(0, 10);
  sendJson(res, 200, backup, {
    ...headers,
    'Content-Disposition': `attachment; filename="hijama-backup-${day}.json"`,
  });
}
