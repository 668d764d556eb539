import { bookingsTable, developmentAnonKey } from '../../core/api-defaults.ts';
import type { BookingRow } from '../../core/booking-row.ts';

/** How long a request may take before the visitor is told it failed. */
export const requestTimeoutMs = 15_000;

/** PostgreSQL's unique violation: the row with this id is already stored, i.e. an earlier try arrived. */
const alreadyStored = '23505';

/**
 * Where requests go, fixed at build time: a Supabase project when both
 * VITE_ variables are set, otherwise the project's own server on this origin.
 */
function restEndpoint(): { url: string; key: string } {
  const supabaseUrl = import.meta.env.VITE_SUPABASE_URL;
  if (supabaseUrl) {
    return {
      url: `${supabaseUrl.replace(/\/+$/, '')}/rest/v1`,
      key: import.meta.env.VITE_SUPABASE_ANON_KEY ?? '',
    };
  }
  return {
    url: `${window.location.origin}/rest/v1`,
    key: import.meta.env.VITE_SUPABASE_ANON_KEY || developmentAnonKey,
  };
}

/** Starts downloading the REST client before it is needed, e.g. when the booking view opens. */
export function preloadBookingClient(): void {
  void import('@supabase/postgrest-js').catch(() => {
    // A failed preload is retried by the real submit, which reports its own error.
  });
}

export class BookingRequestError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    /** The HTTP status, when an answer came; 429 means too many requests. */
    readonly status: number | undefined,
  ) {
    super(message);
    this.name = 'BookingRequestError';
  }
}

/**
 * Inserts one booking request, the way supabase-js does it, and reads nothing
 * back: anonymous callers may insert but not select. Resolves when the row is
 * stored; throws otherwise. `website` is the honeypot, sent only when a robot
 * filled it: the database then answers as if it stored the row.
 */
export async function sendBookingRequest(
  row: BookingRow & { website?: string },
  timeoutMs = requestTimeoutMs,
): Promise<void> {
  const { PostgrestClient } = await import('@supabase/postgrest-js');
  const { url, key } = restEndpoint();
  const client = new PostgrestClient(url, {
    headers: { apikey: key, Authorization: `Bearer ${key}` },
  });
  const { error, status } = await client
    .from(bookingsTable)
    .insert(row)
    .abortSignal(AbortSignal.timeout(timeoutMs));
  if (error && error.code !== alreadyStored) {
    throw new BookingRequestError(error.message, error.code, status || undefined);
  }
}

/** True when the answer said too many requests: the visitor should wait, not retry at once. */
export function isThrottled(error: unknown): boolean {
  return error instanceof BookingRequestError && error.status === 429;
}
