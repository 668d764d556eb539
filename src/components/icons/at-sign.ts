import { lucideIcon } from './lucide-icon.tsx';

export const AtSign = lucideIcon(
  '<circle cx="12" cy="12" r="4"></circle><path d="M16 8v5a3 3 0 0 0 6 0v-1a10 10 0 1 0-4 8"></path>',
);
