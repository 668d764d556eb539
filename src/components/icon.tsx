import {
  Activity,
  Brain,
  Briefcase,
  Bus,
  Car,
  Droplets,
  Dumbbell,
  Flame,
  HeartPulse,
  Leaf,
  MoonStar,
  PersonStanding,
  Shield,
  Sparkles,
  SquareParking,
  Sun,
  TrainFront,
  Waves,
  Zap,
  type LucideIcon,
} from 'lucide-react';
import type { IconName } from '../content/site.ts';

const icons: Record<IconName | 'train' | 'bus' | 'parking' | 'car', LucideIcon> = {
  activity: Activity,
  brain: Brain,
  briefcase: Briefcase,
  droplets: Droplets,
  dumbbell: Dumbbell,
  'heart-pulse': HeartPulse,
  leaf: Leaf,
  'moon-star': MoonStar,
  shield: Shield,
  sparkles: Sparkles,
  sun: Sun,
  waves: Waves,
  zap: Zap,
  flame: Flame,
  'person-standing': PersonStanding,
  train: TrainFront,
  bus: Bus,
  parking: SquareParking,
  car: Car,
};

/** A decorative icon named in the content file; the text beside it carries the meaning. */
export function Icon({ name, className }: { name: keyof typeof icons; className?: string }) {
  const Component = icons[name];
  return (
    <Component aria-hidden="true" focusable="false" className={className} strokeWidth={1.75} />
  );
}
