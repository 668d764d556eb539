/** A picture with its file, size and words, e.g. the sharing picture in public/. */
export interface ImageSlot {
  /** A path under public/. */
  src: string;
  width: number;
  height: number;
  /** What the picture shows, read aloud by screen readers. */
  alt: string;
}

/**
 * The practice's own photographs, each a file in photos/ named after it
 * (room.jpg, practitioner.jpg, kit.jpg): the room in the home hero, the
 * practitioner in their card on home, the sterile single-use kit beside the
 * first-visit questions (docs/content.md, Pictures).
 */
export const photoNames = ['room', 'practitioner', 'kit'] as const;
export type PhotoName = (typeof photoNames)[number];

/** A place on the page for one of the practice's photographs; without the file, the page keeps its drawn design. */
export interface PhotoSlot {
  /** Which file of photos/ fills it. */
  photo: PhotoName;
  /** What the photograph shows, read aloud by screen readers. */
  alt: string;
}
