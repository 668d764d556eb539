import type { LucideIcon } from './icons/lucide-icon.tsx';
import type { Card } from '../content/site.ts';
import { Reveal, revealStep } from './reveal.tsx';

interface CardGridProps<Icon extends string> {
  cards: readonly Card<Icon>[];
  /** The SVG icon for each name the cards use; each view brings only the icons it shows. */
  icons: Record<Icon, LucideIcon>;
  headingLevel?: 2 | 3;
  className?: string;
}

/** Cards with an icon in a tinted circle, a title and a short description. */
export function CardGrid<Icon extends string>({
  cards,
  icons,
  headingLevel = 3,
  className,
}: CardGridProps<Icon>) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <ul className={['card-grid', className].filter(Boolean).join(' ')}>
      {cards.map((card, index) => {
        const CardIcon: LucideIcon = icons[card.icon];
        return (
          <Reveal as="li" key={card.title} step={revealStep(index)} className="card">
            <span className="card-icon">
              <CardIcon aria-hidden="true" strokeWidth={1.75} />
            </span>
            <Heading className="card-title">{card.title}</Heading>
            <p className="card-text">{card.description}</p>
          </Reveal>
        );
      })}
    </ul>
  );
}
