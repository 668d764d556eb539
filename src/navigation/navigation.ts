import { createContext, useContext } from 'react';
import type { PageName } from '../content/site.ts';

/**
 * What the shell (src/app) lends to the views and components below it, so
 * they can move between pages without importing the shell.
 */
export interface Navigation {
  /** The page name in the address bar; may be one no view knows (Coming Soon). */
  pageName: string;
  /** How many times the visitor has switched views; 0 on the first load. */
  switches: number;
  navigate: (pageName: string) => void;
  /** Starts fetching a page's code, e.g. when a link to it is hovered. */
  preload: (pageName: PageName) => void;
}

export const NavigationContext = createContext<Navigation>({
  pageName: 'home',
  switches: 0,
  navigate: () => {},
  preload: () => {},
});

export function useNavigation(): Navigation {
  return useContext(NavigationContext);
}
