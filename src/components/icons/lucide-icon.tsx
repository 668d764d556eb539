/**
 * The Lucide icons the site shows (lucide.dev), drawn as lucide-react drew
 * them, without its `lucide-<name>` classes, which nothing styles, and the
 * `xmlns` that an <svg> inside HTML does not need: with them, the gzipped page
 * was about 150 bytes longer. A few dozen icons did not need a 51 MB package
 * in every install. One file per icon, as Lucide's own: each goes into the
 * code of the views that show it, not into every view's. Lucide is ISC
 * licensed, its icons from Feather MIT: lucide-license.txt beside this file is
 * its notice. A new icon: a file of its own, named as on lucide.dev, with its
 * elements from there ("Copy SVG", each element closed by its end tag as here).
 */
import type { ReactElement, SVGProps } from 'react';

/** What an icon takes: anything an <svg> does, e.g. `aria-hidden`, `className`, `strokeWidth`. */
type IconProps = Omit<SVGProps<SVGSVGElement>, 'children' | 'dangerouslySetInnerHTML'>;

/** One of these icons. */
export type LucideIcon = (props: IconProps) => ReactElement;

/**
 * The icon drawn by `drawing`. The drawing is set as markup, which is safe as
 * each is a constant of its icon's file: one string is shorter, there and in
 * the page's code, than an element each.
 */
/* @__NO_SIDE_EFFECTS__ */
export function lucideIcon(drawing: string): LucideIcon {
  return ({ strokeWidth = 2, ...rest }) => (
    <svg
      width={24}
      height={24}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      {...rest}
      dangerouslySetInnerHTML={{ __html: drawing }}
    />
  );
}
