import { lucideIcon } from './lucide-icon.tsx';

export const X = lucideIcon('<path d="M18 6 6 18"></path><path d="m6 6 12 12"></path>');
