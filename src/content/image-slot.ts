/** An image the practitioner may add later; width and height keep the layout still while it loads. */
export interface ImageSlot {
  /** A path under public/, in a modern format (AVIF or WebP). */
  src: string;
  width: number;
  height: number;
  /** What the picture shows, read aloud by screen readers. */
  alt: string;
}
