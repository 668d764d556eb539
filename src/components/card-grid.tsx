import type { Card } from '../content/site.ts';
import { Icon } from './icon.tsx';
import { Reveal } from './reveal.tsx';

/** Delay between cards that appear together, in milliseconds. */
const stagger = 90;

/** Cards with an icon in a tinted circle, a title and a short description. */
export function CardGrid({
  cards,
  headingLevel = 3,
  className,
}: {
  cards: readonly Card[];
  headingLevel?: 2 | 3;
  className?: string;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <ul className={['card-grid', className].filter(Boolean).join(' ')}>
      {cards.map((card, index) => (
        <Reveal as="li" key={card.title} delay={(index % 4) * stagger} className="card">
          <span className="card-icon">
            <Icon name={card.icon} />
          </span>
          <Heading className="card-title">{card.title}</Heading>
          <p className="card-text">{card.description}</p>
        </Reveal>
      ))}
    </ul>
  );
}
