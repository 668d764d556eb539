import type { Backup } from '../db/backup.ts';
import { ApiError, sendJson, type ApiRole } from '../http/postgrest-error.ts';

/**
 * `GET /rest/v1/rpc/backup` (core/api-defaults.ts, backupPath), on the
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
    throw new ApiError(
      404,
      'PGRST202',
      'Could not find the function public.backup without parameters in the schema cache',
    );
  }
  if (role !== 'service_role') {
    throw new ApiError(
      role === 'anon' ? 401 : 403,
      '42501',
      'permission denied for function backup',
      role === 'anon' ? { headers: { 'WWW-Authenticate': 'Bearer' } } : {},
    );
  }
  if (method !== 'GET' && method !== 'HEAD') {
    throw new ApiError(405, 'PGRST117', `Unsupported HTTP method: ${method}`, {
      headers: { Allow: 'OPTIONS, GET, HEAD' },
    });
  }
  const backup = await readBackup();
  const day = backup.createdAt.slice(0, 10);
  sendJson(res, 200, backup, {
    ...headers,
    'Content-Disposition': `attachment; filename="hijama-backup-${day}.json"`,
  });
}
