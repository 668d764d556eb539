import type { BookingNotice } from '../../supabase/functions/_shared/notifications/booking-notice.ts';

/** SITE_URL of the notification tests: every link to the site must name it. */
export const testSiteUrl = 'https://clinic.test/';

/**
 * The sample request of the tests of what the messages to the practice say,
 * as the notifier reads one (BookingNotice): Amina Khan's, received on 1 July
 * 2026 at 14:05 BST, `fields` over its own. It imports nothing that needs a
 * database or a server, so that those tests stay quick.
 */
export const sampleNotice = (fields: Partial<BookingNotice> = {}): BookingNotice => ({
  id: '5f0c2a8e-2f4b-4d0e-9a47-0a1b2c3d4e5f',
  createdAt: new Date('2026-07-01T13:05:00Z'),
  fullName: 'Amina Khan',
  phone: '07700 900123',
  email: 'amina@example.com',
  instagram: null,
  ...fields,
});

/** An answer token of request `id` in the form the database signs one, its signature a dummy. */
export const sampleAnswerToken = (id: string) => `${id}.1790000000.${'ab'.repeat(32)}`;

/** `notice` with the token of its answer link, as the notifier's queries give it. */
export const withAnswerToken = (notice: BookingNotice) => ({
  ...notice,
  answerToken: sampleAnswerToken(notice.id),
});
