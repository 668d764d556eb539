import { createContext, useContext } from 'react';

export interface Navigation {
  /** The page name in the address bar; may be one no view knows (Coming Soon). */
  pageName: string;
  /** How many times the visitor has switched views; 0 on the first load. */
  switches: number;
  navigate: (pageName: string) => void;
}

export const NavigationContext = createContext<Navigation>({
  pageName: 'home',
  switches: 0,
  navigate: () => {},
});

export function useNavigation(): Navigation {
  return useContext(NavigationContext);
}
