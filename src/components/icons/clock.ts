import { lucideIcon } from './lucide-icon.tsx';

export const Clock = lucideIcon(
  '<circle cx="12" cy="12" r="10"></circle><path d="M12 6v6l4 2"></path>',
);
