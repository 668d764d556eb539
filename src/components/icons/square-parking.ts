import { lucideIcon } from './lucide-icon.tsx';

export const SquareParking = lucideIcon(
  '<path d="M9 12h4a2 2 0 0 0 0-4H9.5a.5.5 0 0 0-.5.5V16"></path><rect width="18" height="18" x="3" y="3" rx="2"></rect>',
);
