import { lucideIcon } from './lucide-icon.tsx';

export const ArrowRight = lucideIcon('<path d="M5 12h14"></path><path d="m12 5 7 7-7 7"></path>');
