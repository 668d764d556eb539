import type { ReactNode } from 'react';
import { homePhotoScriptAttribute } from '../boot/protocol.ts';
import type { PhotoSlot } from '../content/image-slot.ts';
import type { BuiltPhotos } from '../lib/photo-layout.ts';

/** What the build made of photos/; nothing outside a build (tests, tools). */
const builtPhotos: BuiltPhotos = typeof __PHOTOS__ === 'undefined' ? {} : __PHOTOS__;

/**
 * One of the practice's photographs, in AVIF (or WebP where the browser reads
 * no AVIF) at the screen's density, or `fallback` (the drawn design) while there
 * is none. `priority` is for home's photograph in the first screen: fetched
 * first, never lazily, and only where the page arrives at home. Every address
 * is served the same HTML with home's markup in it, so the server render holds
 * that photo in a <noscript> for a boot script to put in place on home alone
 * (`homePhotoScriptAttribute`); browsers without scripts show it as it is.
 */
export function Photo({
  slot,
  className,
  priority = false,
  fallback = null,
}: {
  slot: PhotoSlot;
  className?: string;
  priority?: boolean;
  fallback?: ReactNode;
}) {
  const built = builtPhotos[slot.photo];
  if (!built) return fallback;
  const picture = (
    <picture className={className}>
      <source type="image/avif" srcSet={built.avif} />
      <img
        src={built.src}
        srcSet={built.webp || undefined}
        width={built.width}
        height={built.height}
        alt={slot.alt}
        {...(priority ? { fetchPriority: 'high' } : { loading: 'lazy' })}
      />
    </picture>
  );
  if (!priority || !import.meta.env.SSR) return picture;
  return (
    <>
      <noscript>{picture}</noscript>
      <script {...{ [homePhotoScriptAttribute]: '' }} />
    </>
  );
}
