import { pageNames, type PageName } from '../content/site.ts';

/** The view to show: one of the pages, or 'coming-soon' for any other name. */
export type ViewName = PageName | 'coming-soon';

export function isPageName(name: string): name is PageName {
  return (pageNames as readonly string[]).includes(name);
}

export function viewFor(pageName: string): ViewName {
  return isPageName(pageName) ? pageName : 'coming-soon';
}

/** The address bar's URL for a page: home is the bare path, every other page a fragment. */
export function urlFor(pageName: string, pathname = '/'): string {
  return pageName === 'home' ? pathname : `${pathname}#${encodeURIComponent(pageName)}`;
}
