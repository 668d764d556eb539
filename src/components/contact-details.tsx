import { Mail, MapPin, Phone } from 'lucide-react';
import { site } from '../content/site.ts';

/** Phone, e-mail and location, each a link a phone can act on. */
export function ContactDetails({ className }: { className?: string }) {
  const { phone, email, location } = site.contactDetails;
  const labels = site.contactLabels;
  return (
    <ul className={['contact-details', className].filter(Boolean).join(' ')}>
      <li>
        <span className="contact-icon">
          <Phone aria-hidden="true" />
        </span>
        <span className="contact-text">
          <span className="contact-label">{labels.phone}</span>
          <a href={`tel:${phone.international}`}>{phone.display}</a>
        </span>
      </li>
      <li>
        <span className="contact-icon">
          <Mail aria-hidden="true" />
        </span>
        <span className="contact-text">
          <span className="contact-label">{labels.email}</span>
          <a href={`mailto:${email}`}>{email}</a>
        </span>
      </li>
      <li>
        <span className="contact-icon">
          <MapPin aria-hidden="true" />
        </span>
        <span className="contact-text">
          <span className="contact-label">{labels.location}</span>
          <a href={site.address.directionsUrl} rel="noopener" target="_blank">
            {location}
            <span className="visually-hidden"> (directions open in a new tab)</span>
          </a>
        </span>
      </li>
    </ul>
  );
}
