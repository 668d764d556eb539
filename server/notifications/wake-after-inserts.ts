import type { BookingsRepository } from '../../supabase/functions/_shared/db/bookings-repository.ts';
import type { Notifier } from '../../supabase/functions/_shared/notifications/notifier.ts';

/**
 * The project's server wakes its notifier as soon as it stores a booking, so
 * that the practice hears of it within milliseconds; pollers (hosted Supabase,
 * another server) find it a few seconds later. Server-only: the Edge Function
 * is woken by the database instead.
 */

/** The repository, waking the notifier as soon as a booking is stored. */
export function wakeAfterInserts(
  bookings: BookingsRepository,
  notifier: Pick<Notifier, 'wake'>,
): BookingsRepository {
  return {
    ...bookings,
    insertAsAnon: async (rows, request) => {
      await bookings.insertAsAnon(rows, request);
      notifier.wake();
    },
  };
}
