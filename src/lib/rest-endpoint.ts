import { developmentAnonKey } from '../../supabase/functions/_shared/core/api-defaults.ts';

/** The REST interface the page talks to: its base URL and the public anon key. */
interface RestEndpoint {
  url: string;
  key: string;
}

/**
 * How long one exchange with the API may take before the visitor is told it
 * failed: the booking form's (during a flood a booking takes three, the refused
 * insert, the challenge and the insert with its proof, each with this limit) and
 * the answer page's buttons'.
 */
export const requestTimeoutMs = 15_000;

/**
 * A signal that aborts one exchange after `requestTimeoutMs`. Made by hand
 * where AbortSignal.timeout is missing: Safari has it from 16, and iPhones
 * that take no later iOS than 15 (6s, 7, first SE) still book.
 */
export function requestTimeoutSignal(): AbortSignal {
  if (typeof AbortSignal.timeout === 'function') return AbortSignal.timeout(requestTimeoutMs);
  const controller = new AbortController();
  const timedOut = new DOMException('The request timed out.', 'TimeoutError');
  setTimeout(() => controller.abort(timedOut), requestTimeoutMs);
  return controller.signal;
}

/**
 * Where requests go, fixed at build time: a Supabase project when both
 * VITE_ variables are set, otherwise the project's own server on this origin.
 * The booking form and the answer page use the same one.
 */
export function restEndpoint(): RestEndpoint {
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
