import { site } from '../content/site.ts';

/** The sessions with about how long each takes and what it costs from; descriptions where there is room. */
export function SessionPrices({ withDescriptions = false }: { withDescriptions?: boolean }) {
  const { sessions, terms, confirmed, placeholderNote } = site.home.sessions;
  return (
    <>
      <ul className="price-list">
        {sessions.map((session) => (
          <li key={session.name} className="price-item">
            <span className="price-name">{session.name}</span>
            <span className="price-terms">{terms(session.minutes, session.fromPounds)}</span>
            {withDescriptions ? <p className="price-description">{session.description}</p> : null}
          </li>
        ))}
      </ul>
      {confirmed ? null : <p className="price-note">{placeholderNote}</p>}
    </>
  );
}
