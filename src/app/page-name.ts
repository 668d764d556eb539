import { pageNames, type PageName } from '../content/site.ts';

/** The view to show: one of the pages, or 'coming-soon' for any other name. */
export type ViewName = PageName | 'coming-soon';

export function isPageName(name: string): name is PageName {
  return (pageNames as readonly string[]).includes(name);
}

/**
 * The skip link's target. Followed before the script has started (on the
 * pre-rendered home view), it leaves '#main' in the address bar; that is a
 * place on the home page, not a page name.
 */
const skipLinkTarget = 'main';

/** The page name a URL fragment asks for: '', '#' and '#main' mean home; anything else is taken as written. */
export function pageNameFromHash(hash: string): string {
  const name = decodeURIComponent(hash.replace(/^#/, '')).trim();
  return name === '' || name === skipLinkTarget ? 'home' : name;
}

export function viewFor(pageName: string): ViewName {
  return isPageName(pageName) ? pageName : 'coming-soon';
}

/** The address bar's URL for a page: home is the bare path, every other page a fragment. */
export function urlFor(pageName: string, pathname = '/'): string {
  return pageName === 'home' ? pathname : `${pathname}#${encodeURIComponent(pageName)}`;
}
