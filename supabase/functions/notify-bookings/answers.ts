/**
 * Every answer of the notify-bookings function, with its status, in one
 * place: the function's own share of what server/http/api-errors.ts is for
 * the project's server. Each is JSON; an error is `{"error": "…"}` in words a
 * deployer can act on.
 */

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

const error = (status: number, message: string, headers: Record<string, string> = {}) =>
  json(status, { error: message }, headers);

/** What a run did: the notifications sent, or the daily run's outcome. */
export const done = (result: unknown) => json(200, result);

export const methodNotAllowed = () => error(405, 'Use POST.', { Allow: 'POST' });

export const unauthorized = () =>
  error(
    401,
    "Unauthorized: the call's Authorization is not Bearer <NOTIFY_FUNCTION_SECRET>. The database sends the Vault secret notify_bookings_secret, which must be the same value.",
    { 'WWW-Authenticate': 'Bearer' },
  );

export const bodyNotJson = () => error(400, 'The body must be JSON: {} or {"task": "heartbeat"}.');

export const unknownTask = (task: unknown) =>
  error(
    400,
    `Unknown task ${JSON.stringify(task)}: send {} to send the notifications, or {"task": "heartbeat"} for the daily run.`,
  );

/** The function's settings cannot be used: the secret, a channel, the database's address. */
export const misconfigured = (message: string) => error(500, message);

export const secretNotSet = () => misconfigured('NOTIFY_FUNCTION_SECRET is not set.');

/** The database did not answer: the caller may try again. */
export const databaseUnavailable = (message: string) => error(503, message);

/** Anything else that failed, in the words of the error. */
export const failed = (message: string) => error(500, message);
