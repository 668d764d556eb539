/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The Supabase project's URL; unset to use the project's own server on the same origin. */
  readonly VITE_SUPABASE_URL?: string;
  /** The Supabase project's public anon key. */
  readonly VITE_SUPABASE_ANON_KEY?: string;
}

/** SITE_URL as the build read it (vite.config.ts, supabase/functions/_shared/content/site-url.ts). */
declare const __SITE_URL__: string;

/** The clinic's clock changes, written by the build (vite.config.ts, src/lib/utc-offsets.ts). */
declare const __CLINIC_UTC_OFFSETS__: import('./lib/utc-offsets.ts').UtcOffsets;

/** The Sunnah days' dates, written by the build (vite.config.ts, src/lib/sunnah-days.ts). */
declare const __SUNNAH_DAYS__: readonly import('./lib/calendar-date.ts').IsoDate[];

/** The practice's photographs the build made from photos/ (scripts/lib/photos.ts). */
declare const __PHOTOS__: import('./lib/photo-layout.ts').BuiltPhotos;
