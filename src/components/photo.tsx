import type { ReactNode } from 'react';
import type { PhotoSlot } from '../content/image-slot.ts';
import type { BuiltPhotos } from '../lib/photo-layout.ts';

/** What the build made of photos/; nothing outside a build (tests, tools). */
const builtPhotos: BuiltPhotos = typeof __PHOTOS__ === 'undefined' ? {} : __PHOTOS__;

/**
 * One of the practice's photographs, in AVIF (or WebP where the browser reads
 * no AVIF) at the screen's density, or `fallback` (the drawn design) while there
 * is none. `priority` is for
 * the photograph in the first screen: fetched first, never lazily.
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
  return (
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
}
