import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  functionNotFound,
  functionPermissionDenied,
  invalidJson,
  invalidRpcArgument,
  unsupportedMethod,
  type ApiRole,
} from '../http/api-errors.ts';
import { readBody } from '../http/read-body.ts';
import { sendJson } from '../http/send-json.ts';
import type { NotificationStates } from '../notifications/notification-states.ts';

/**
 * `/rest/v1/rpc/…`: two functions, in PostgREST's RPC shape, through which
 * `npm run bookings` reads the state of the notifications while the server
 * holds the embedded database (the outbox is in app_private, which the table
 * API never exposes). Only with the service key.
 *
 * - `POST /rest/v1/rpc/booking_notification_states` with `{"since": "<ISO 8601>"}`
 *   answers `[{booking_id, state, attempts, last_error}]` for the requests
 *   received at or after that instant (the oldest one listed);
 * - `POST /rest/v1/rpc/failing_booking_notifications` with `{}` answers
 *   `[{booking_id, created_at, attempts, last_error}]`.
 */

export const notificationRpcNames = [
  'booking_notification_states',
  'failing_booking_notifications',
] as const;

export interface RpcRequest {
  req: IncomingMessage;
  res: ServerResponse;
  role: ApiRole;
  headers: Record<string, string>;
}

export async function callNotificationRpc(
  name: string,
  { req, res, role, headers }: RpcRequest,
  states: NotificationStates | undefined,
) {
  if (!(notificationRpcNames as readonly string[]).includes(name) || !states) {
    throw functionNotFound(name);
  }
  if (req.method !== 'POST') {
    throw unsupportedMethod(req.method ?? '', 'POST');
  }
  if (role !== 'service_role') {
    throw functionPermissionDenied(role, name);
  }
  const body = await readBody(req, 16 * 1024);
  let args: unknown;
  try {
    args = body.length === 0 ? {} : JSON.parse(body.toString('utf8'));
  } catch {
    throw invalidJson();
  }

  if (name === 'failing_booking_notifications') {
    const failing = await states.failing();
    sendJson(
      res,
      200,
      failing.map((entry) => ({
        booking_id: entry.bookingId,
        created_at: entry.createdAt.toISOString(),
        attempts: entry.attempts,
        last_error: entry.lastError,
      })),
      headers,
    );
    return;
  }

  const since = (args as { since?: unknown } | null)?.since;
  const instant = typeof since === 'string' ? new Date(since) : undefined;
  if (!instant || Number.isNaN(instant.getTime())) {
    throw invalidRpcArgument('since must be a date and time, e.g. 2026-11-01T09:00:00Z');
  }
  const found = await states.receivedSince(instant);
  sendJson(
    res,
    200,
    [...found].map(([bookingId, status]) => ({
      booking_id: bookingId,
      state: status.state,
      attempts: status.attempts,
      last_error: status.lastError,
    })),
    headers,
  );
}
