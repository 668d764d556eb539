/**
 * The Lucide icons the site shows (lucide.dev), drawn as lucide-react 1.75.0
 * drew them: the same <svg>, attributes, classes and elements, so the pages
 * are byte for byte what they were. A few dozen icons did not need a 51 MB
 * package in every install. One file per icon, as Lucide's own: each goes
 * into the code of the views that show it, not into every view's. Lucide is
 * ISC licensed, its icons from Feather MIT: lucide-license.txt beside this
 * file is its notice. A new icon: a file of its own with its elements from
 * lucide.dev ("Copy SVG", each element closed by its end tag as here) and its
 * names.
 */
import type { ReactElement, SVGProps } from 'react';

/** What an icon takes: anything an <svg> does, e.g. `aria-hidden`, `className`, `strokeWidth`. */
type IconProps = Omit<SVGProps<SVGSVGElement>, 'children' | 'dangerouslySetInnerHTML'>;

/** One of these icons. */
export type LucideIcon = (props: IconProps) => ReactElement;

/**
 * The icon named `names` (its Lucide name, then its aliases: each becomes a
 * `lucide-<name>` class, as Lucide's components give them), drawn by
 * `drawing`. The drawing is set as markup, which is safe as each is a constant
 * of its icon's file: one string is shorter, there and in the page's code,
 * than an element each.
 */
/* @__NO_SIDE_EFFECTS__ */
export function lucideIcon(names: string, drawing: string): LucideIcon {
  const classes = ['lucide', ...names.split(' ').map((name) => `lucide-${name}`)].join(' ');
  return ({ className, strokeWidth = 2, ...rest }) => (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={24}
      height={24}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className ? `${classes} ${className}` : classes}
      {...rest}
      dangerouslySetInnerHTML={{ __html: drawing }}
    />
  );
}
