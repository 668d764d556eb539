import { lucideIcon } from './lucide-icon.tsx';

export const CircleAlert = lucideIcon(
  '<circle cx="12" cy="12" r="10"></circle><line x1="12" x2="12" y1="8" y2="12"></line><line x1="12" x2="12.01" y1="16" y2="16"></line>',
);
