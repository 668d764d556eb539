import { lucideIcon } from './lucide-icon.tsx';

export const Waves = lucideIcon(
  '<path d="M2 12q2.5 2 5 0t5 0 5 0 5 0"></path><path d="M2 19q2.5 2 5 0t5 0 5 0 5 0"></path><path d="M2 5q2.5 2 5 0t5 0 5 0 5 0"></path>',
);
