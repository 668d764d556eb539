/**
 * The few words the specification fixes exactly: the booking buttons, the
 * modal's Close button and 'Thank You!' title, 'Coming Soon' (section 2), the
 * field messages (section 5) and the failure message (section 8).
 *
 * They are written out here rather than read from src/content/site.ts or
 * supabase/functions/_shared/core/booking-rules.ts, so that an edit there that departs from the
 * specification fails a test. Every other word of copy the tests read from
 * `site`: changing it changes no behaviour, and breaks no test.
 */
export const specifiedWords = {
  bookButton: 'Book Your Session',
  bookNowButton: 'Book Your Session Now',
  submittingButton: 'Submitting...',
  closeButton: 'Close',
  thankYouTitle: 'Thank You!',
  comingSoonHeading: 'Coming Soon',
  submitFailure: 'There was an error submitting your request. Please try again.',
  fieldMessages: {
    fullNameRequired: 'Full name is required',
    phoneRequired: 'Phone number is required',
    phoneInvalid: 'Please enter a valid phone number',
    emailRequired: 'Email is required',
    emailInvalid: 'Please enter a valid email address',
  },
} as const;
