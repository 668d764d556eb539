/**
 * What must be replaced before going live, each line saying what to do: the
 * practice's example facts and SITE_URL (_shared/content/placeholders.ts), the
 * practitioner's PLACEHOLDER texts and the unconfirmed prices
 * (before-booking.ts), then every SAMPLE review (reviews.ts). `npx hijama
 * check` fails on it; the build and the server's start warn of it.
 */
import { practice } from '../../supabase/functions/_shared/content/practice.ts';
import {
  placeholdersLeft,
  type PracticeFacts,
} from '../../supabase/functions/_shared/content/placeholders.ts';
import { beforeBookingPlaceholdersLeft, practitioner, sessionPrices } from './before-booking.ts';
import { reviews, sampleReviewsLeft, type Testimonial } from './reviews.ts';

/** The content the list reads: as shipped, or a copy filled in (tests). */
export interface LaunchContent {
  facts: PracticeFacts;
  beforeBooking: Parameters<typeof beforeBookingPlaceholdersLeft>[0];
  reviews: readonly Testimonial[];
}

export const shippedContent: LaunchContent = {
  facts: practice,
  beforeBooking: { practitioner, sessionPrices },
  reviews,
};

/** `siteUrlSetting`: SITE_URL as the server, the command or the build reads it. */
export function launchPlaceholders(
  siteUrlSetting: string | undefined,
  content: LaunchContent = shippedContent,
): string[] {
  return [
    ...placeholdersLeft(content.facts, siteUrlSetting),
    ...beforeBookingPlaceholdersLeft(content.beforeBooking),
    ...sampleReviewsLeft(content.reviews),
  ];
}
