import type { AnchorHTMLAttributes } from 'react';
import type { PageName } from '../content/site.ts';
import { useNavigation } from './navigation.ts';

interface PageLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  page: PageName;
}

/**
 * A link to a view. A real link to its fragment, so it works before the script
 * has started; once it has, the view switches in place (with the scroll to the
 * top and the focus on its heading). `onClick` runs first, e.g. to close the menu.
 */
export function PageLink({ page, onClick, children, ...attributes }: PageLinkProps) {
  const { navigate } = useNavigation();
  return (
    <a
      {...attributes}
      href={`#${page}`}
      onClick={(event) => {
        onClick?.(event);
        event.preventDefault();
        navigate(page);
      }}
    >
      {children}
    </a>
  );
}
