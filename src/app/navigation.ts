import { createContext, useContext } from 'react';

export interface Navigation {
  /** The page name in the address bar; may be one no view knows (Coming Soon). */
  pageName: string;
  navigate: (pageName: string) => void;
}

export const NavigationContext = createContext<Navigation>({
  pageName: 'home',
  navigate: () => {},
});

export function useNavigation(): Navigation {
  return useContext(NavigationContext);
}
