import { lucideIcon } from './lucide-icon.tsx';

export const Navigation = lucideIcon('<polygon points="3 11 22 2 13 21 11 13 3 11"></polygon>');
