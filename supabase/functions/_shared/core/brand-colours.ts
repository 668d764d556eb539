/**
 * The site's colours, in one place: a therapy room's deep teal and warm sand,
 * and one copper accent for booking. The page's style sheet names them as
 * custom properties (src/styles/base.css: `teal800` is `--teal-800`), the
 * e-mails take them inline (supabase/functions/_shared/notifications/booking-notice.ts), the
 * sharing picture and icons are drawn with them (scripts/make-images.ts).
 * A style sheet cannot import, so a test holds base.css to this list.
 */
export const brandColours = {
  teal950: '#0b2826',
  teal900: '#0f302e',
  teal800: '#123c3a',
  teal700: '#1b504c',
  teal600: '#28645f',
  teal100: '#dcebe6',
  teal50: '#edf5f2',
  sand50: '#fbf7f0',
  sand100: '#f5ede0',
  sand200: '#eadcc6',
  sand300: '#d9c6a6',
  ink: '#1c2725',
  inkMuted: '#4a5653',
  copper600: '#a5461f',
  copper700: '#883816',
  copper100: '#f6e4d8',
  gold300: '#e6b27a',
  creamOnDark: '#f4ead9',
  error: '#b42318',
  errorBg: '#fdecea',
  success: '#1f6f43',
  focus: '#1f6fd1',
} as const;

export type BrandColour = keyof typeof brandColours;

/** `teal800` → `--teal-800`, as base.css names it. */
export function customPropertyName(colour: BrandColour): string {
  return `--${colour
    .replace(/([a-z])([A-Z0-9])/g, '$1-$2')
    .replace(/([0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()}`;
}
