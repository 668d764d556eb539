import { lucideIcon } from './lucide-icon.tsx';

export const Info = lucideIcon(
  '<circle cx="12" cy="12" r="10"></circle><path d="M12 16v-4"></path><path d="M12 8h.01"></path>',
);
