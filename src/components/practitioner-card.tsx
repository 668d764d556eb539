import { site } from '../content/site.ts';
import { CupMark } from './cup-mark.tsx';
import { Photo } from './photo.tsx';

/** Who the visitor will meet: name, portrait, training, insurance, registration. */
export function PractitionerCard() {
  const { practitioner } = site.home;
  const { labels, portrait } = practitioner;
  const facts = [
    { label: labels.training, value: practitioner.training },
    { label: labels.insurance, value: [practitioner.insurance] },
    { label: labels.registration, value: site.registration ? [site.registration] : [] },
    { label: labels.women, value: practitioner.womenClients ? [practitioner.womenClients] : [] },
  ].filter((fact) => fact.value.length > 0);
  return (
    <div className="practitioner">
      <div className="portrait">
        {/* The photograph's place, kept by the drawn mark until there is one. */}
        <Photo slot={portrait} fallback={<CupMark className="portrait-mark" />} />
      </div>
      <div className="practitioner-text">
        <h2 id="practitioner" className="section-title">
          {practitioner.heading}
        </h2>
        <p className="practitioner-name">{practitioner.name}</p>
        <p className="practitioner-role">{practitioner.role}</p>
        <p className="practitioner-line">{practitioner.personalLine}</p>
        <dl className="practitioner-facts">
          {facts.map(({ label, value }) => (
            <div key={label}>
              <dt>{label}</dt>
              {value.map((line) => (
                <dd key={line}>{line}</dd>
              ))}
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}
