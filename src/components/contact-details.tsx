import { Mail, MapPin, Phone, type LucideIcon } from 'lucide-react';
import type { AnchorHTMLAttributes } from 'react';
import { site } from '../content/site.ts';

interface ContactItem {
  icon: LucideIcon;
  label: string;
  text: string;
  link: AnchorHTMLAttributes<HTMLAnchorElement>;
  /** Read after the text by screen readers only. */
  note?: string;
}

const { phone, email, location } = site.contactDetails;
const items: ContactItem[] = [
  {
    icon: Phone,
    label: site.contactLabels.phone,
    text: phone.display,
    link: { href: `tel:${phone.international}` },
  },
  { icon: Mail, label: site.contactLabels.email, text: email, link: { href: `mailto:${email}` } },
  {
    icon: MapPin,
    label: site.contactLabels.location,
    text: location,
    link: { href: site.address.directionsUrl, rel: 'noopener', target: '_blank' },
    note: site.chrome.opensInNewTab,
  },
];

/** Phone, e-mail and location (with directions), each a link a phone can act on. */
export function ContactDetails({ className }: { className?: string }) {
  return (
    <ul className={['contact-details', className].filter(Boolean).join(' ')}>
      {items.map(({ icon: ItemIcon, label, text, link, note }) => (
        <li key={label}>
          <span className="contact-icon">
            <ItemIcon aria-hidden="true" />
          </span>
          <span className="contact-text">
            <span className="contact-label">{label}</span>
            <a {...link}>
              {text}
              {note ? <span className="visually-hidden">{note}</span> : null}
            </a>
          </span>
        </li>
      ))}
    </ul>
  );
}
