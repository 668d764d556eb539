import { answerLinkPrefix } from '../../supabase/functions/_shared/core/answer-link.ts';
import { pageNames, type PageName } from '../content/page-names.ts';

/**
 * The view to show: one of the pages, 'answer' for the link of a booking
 * e-mail that marks the request answered (`answer=<token>`, never in the
 * menu), or 'coming-soon' for any other name.
 */
export type ViewName = PageName | 'answer' | 'coming-soon';

export function isPageName(name: string): name is PageName {
  return (pageNames as readonly string[]).includes(name);
}

export function viewFor(pageName: string): ViewName {
  if (isPageName(pageName)) return pageName;
  // A malformed token still gets the answer view, which says the link is not valid.
  return pageName.startsWith(answerLinkPrefix) ? 'answer' : 'coming-soon';
}

/** The address bar's URL for a page: home is the bare path, every other page a fragment. */
export function urlFor(pageName: string, pathname = '/'): string {
  return pageName === 'home' ? pathname : `${pathname}#${encodeURIComponent(pageName)}`;
}
