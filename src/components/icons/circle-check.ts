import { lucideIcon } from './lucide-icon.tsx';

export const CircleCheck = lucideIcon(
  '<circle cx="12" cy="12" r="10"></circle><path d="m16 9-5.5 5.5L8 12"></path>',
);
