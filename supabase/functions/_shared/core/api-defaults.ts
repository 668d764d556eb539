/**
 * The public key a build without `VITE_SUPABASE_ANON_KEY` sends, and the key the
 * project's own server accepts when `ANON_KEY` is unset. It is public by design
 * (anonymous callers may only insert a booking request); set your own in production.
 */
export const developmentAnonKey = 'hijama-local-development-anon-key';

/** Where a booking request is posted, relative to the REST root (PostgREST's layout). */
export const bookingsTable = 'bookings';
