import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  functionNotFound,
  functionPermissionDenied,
  invalidRpcArgument,
  invalidUuid,
  unsupportedMethod,
  type ApiRole,
} from '../http/api-errors.ts';
import { sendJson } from '../http/send-json.ts';
import {
  answerChannels,
  isAnswerChannel,
  type BookingAnswer,
  type BookingAnswers,
} from '../../supabase/functions/_shared/db/booking-answers.ts';
import type { NotificationStates } from '../../supabase/functions/_shared/notifications/notification-states.ts';
import { readJsonArguments } from './rpc-arguments.ts';

/**
 * `/rest/v1/rpc/…`: the functions, in PostgREST's RPC shape, through which
 * `npx hijama` reads the state of the notifications and of the answers, and
 * marks a request answered, while the server holds the embedded database (the
 * outbox and the answers are in app_private, which the table API never
 * exposes). Only with the service key; `POST` with a JSON object.
 *
 * - `booking_notification_states` with `{"since": "<ISO 8601>"}` answers
 *   `[{booking_id, state, attempts, last_error}]` for the requests received at
 *   or after that instant (the oldest one listed);
 * - `failing_booking_notifications` with `{}` answers
 *   `[{booking_id, created_at, attempts, last_error}]`;
 * - `booking_answer_states` with `{"since": "<ISO 8601>"}` answers
 *   `[{booking_id, answered_at, channel, marked_by}]` for the requests received
 *   since then that were answered (the others are waiting);
 * - `answer_booking_request` with `{"booking_id": "<uuid>", "channel": "email"|…|null}`
 *   marks that request answered by the command unless it already is, and
 *   answers `{outcome, answered_at, channel, marked_by}` (`outcome`: `marked`
 *   or `already answered`), or `{outcome: "not found"}`;
 * - `unanswer_booking_request` with `{"booking_id": "<uuid>"}` takes back that
 *   request's mark (`npx hijama answer REF --undo`) and answers
 *   `{outcome: "unmarked", answered_at, channel, marked_by}` with the mark it
 *   took back, or `{outcome: "not answered"}`, or `{outcome: "not found"}`.
 */

export const serviceRpcNames = [
  'booking_notification_states',
  'failing_booking_notifications',
  'booking_answer_states',
  'answer_booking_request',
  'unanswer_booking_request',
] as const;

type ServiceRpcName = (typeof serviceRpcNames)[number];

export interface RpcRequest {
  req: IncomingMessage;
  res: ServerResponse;
  role: ApiRole;
  headers: Record<string, string>;
}

/** What the service-key functions read and change; a function whose part is unset is not found. */
export interface ServiceRpcDeps {
  notificationStates?: NotificationStates;
  bookingAnswers?: BookingAnswers;
}

export async function callServiceRpc(
  name: string,
  { req, res, role, headers }: RpcRequest,
  deps: ServiceRpcDeps,
) {
  if (!isServiceRpc(name) || !provides(name, deps)) throw functionNotFound(name);
  if (req.method !== 'POST') {
    throw unsupportedMethod(req.method ?? '', 'POST');
  }
  if (role !== 'service_role') {
    throw functionPermissionDenied(role, name);
  }
  const args = await readJsonArguments(req);
  const answer = (body: unknown) => sendJson(res, 200, body, headers);

  switch (name) {
    case 'failing_booking_notifications': {
      const failing = await deps.notificationStates!.failing();
      return answer(
        failing.map((entry) => ({
          booking_id: entry.bookingId,
          created_at: entry.createdAt.toISOString(),
          attempts: entry.attempts,
          last_error: entry.lastError,
        })),
      );
    }
    case 'booking_notification_states': {
      const found = await deps.notificationStates!.receivedSince(sinceArgument(args));
      return answer(
        [...found].map(([bookingId, status]) => ({
          booking_id: bookingId,
          state: status.state,
          attempts: status.attempts,
          last_error: status.lastError,
        })),
      );
    }
    case 'booking_answer_states': {
      const found = await deps.bookingAnswers!.answeredSince(sinceArgument(args));
      return answer(
        [...found].map(([bookingId, entry]) => ({ booking_id: bookingId, ...answerJson(entry) })),
      );
    }
    case 'answer_booking_request': {
      const result = await deps.bookingAnswers!.markById(
        bookingIdArgument(args),
        channelArgument(args),
      );
      return answer(
        result.outcome === 'not found'
          ? { outcome: result.outcome }
          : { outcome: result.outcome, ...answerJson(result.answer) },
      );
    }
    case 'unanswer_booking_request': {
      const result = await deps.bookingAnswers!.unmarkById(bookingIdArgument(args));
      return answer(
        result.outcome === 'unmarked'
          ? { outcome: result.outcome, ...answerJson(result.answer) }
          : { outcome: result.outcome },
      );
    }
  }
}

function isServiceRpc(name: string): name is ServiceRpcName {
  return (serviceRpcNames as readonly string[]).includes(name);
}

function provides(name: ServiceRpcName, deps: ServiceRpcDeps): boolean {
  return name === 'booking_answer_states' ||
    name === 'answer_booking_request' ||
    name === 'unanswer_booking_request'
    ? deps.bookingAnswers !== undefined
    : deps.notificationStates !== undefined;
}

function answerJson(entry: BookingAnswer) {
  return {
    answered_at: entry.answeredAt.toISOString(),
    channel: entry.channel,
    marked_by: entry.markedBy,
  };
}

function sinceArgument(args: Record<string, unknown>): Date {
  const instant = typeof args.since === 'string' ? new Date(args.since) : undefined;
  if (!instant || Number.isNaN(instant.getTime())) {
    throw invalidRpcArgument('since must be a date and time, e.g. 2026-11-01T09:00:00Z');
  }
  return instant;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function bookingIdArgument(args: Record<string, unknown>): string {
  const id = args.booking_id;
  if (typeof id !== 'string' || !uuidPattern.test(id)) {
    throw invalidUuid(typeof id === 'string' ? id : JSON.stringify(id ?? null));
  }
  return id;
}

function channelArgument(args: Record<string, unknown>) {
  const channel = args.channel ?? null;
  if (channel === null) return null;
  if (typeof channel !== 'string' || !isAnswerChannel(channel)) {
    throw invalidRpcArgument(`channel must be one of ${answerChannels.join(', ')}, or null`);
  }
  return channel;
}
