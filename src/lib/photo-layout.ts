/**
 * How big each of the practice's photographs shows on the page, and so which
 * files the build makes of it: the one table that the build
 * (scripts/lib/photos.ts) and the page (src/components/photo.tsx) read. Keep it
 * in step with the photographs' places in src/styles/views.css.
 */
import type { PhotoName } from '../content/image-slot.ts';

/** Where a photograph sits: its crop and how wide it shows. */
export interface PhotoLayout {
  /** Width over height of the crop the page shows. */
  aspect: number;
  /** The widest it shows, in CSS pixels, on a phone or a wide screen. */
  cssWidth: number;
}

export const photoLayouts = {
  // .hero-visual: 22rem on phones, 26rem from 56rem; an arch, taller than wide.
  room: { aspect: 4 / 5, cssWidth: 416 },
  // .portrait: a circle of 10rem on phones, 14rem from 56rem.
  practitioner: { aspect: 1, cssWidth: 224 },
  // .first-visit-photo: 22rem on phones, 18rem beside the questions from 56rem.
  kit: { aspect: 4 / 3, cssWidth: 352 },
} as const satisfies Record<PhotoName, PhotoLayout>;

/**
 * The screens' pixel densities the files are made for. Each place shows at a
 * fixed width, within a fifth of its widest on any screen, so a file per
 * density is all the browser needs to choose (a `srcset` of densities, no
 * `sizes`): a 3x phone takes the 2x file, which looks the same at these sizes.
 */
const densities = [1, 2];

/**
 * The widths to make of a photograph, smallest first: its widest at each
 * density, but never wider than the crop the source holds (no upscaling).
 */
export function photoWidths(
  layout: PhotoLayout,
  sourceWidth: number,
  sourceHeight: number,
): number[] {
  const cropWidth = Math.min(sourceWidth, Math.floor(sourceHeight * layout.aspect));
  const wanted = densities.map((density) => Math.min(layout.cssWidth * density, cropWidth));
  return [...new Set(wanted)].sort((a, b) => a - b);
}

/** The height of the crop at a width. */
export function photoHeight(layout: PhotoLayout, width: number): number {
  return Math.round(width / layout.aspect);
}

/** A `srcset` attribute: each file with the density it serves (its width over the place's). */
export function srcset(
  layout: PhotoLayout,
  files: readonly { url: string; width: number }[],
): string {
  return files
    .map(({ url, width }) => `${url} ${Math.round((width / layout.cssWidth) * 100) / 100}x`)
    .join(', ');
}

/** A photograph the build made, as the page needs it. */
interface BuiltPhoto {
  /** The 1x file's size: the `width` and `height` that keep the layout still. */
  width: number;
  height: number;
  /** The `srcset` of the AVIF files, for the browsers that read AVIF. */
  avif: string;
  /** The 1x WebP, for the browsers that read no AVIF. */
  src: string;
  /** The `srcset` of the WebP files above 1x (the `src` is the 1x); empty when the photo is too small for them. */
  webp: string;
}

/** The photographs the build found in photos/, by name; a name absent has no file. */
export type BuiltPhotos = Partial<Record<PhotoName, BuiltPhoto>>;
