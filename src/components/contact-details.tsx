import { AtSign } from './icons/at-sign.ts';
import { Mail } from './icons/mail.ts';
import { MapPin } from './icons/map-pin.ts';
import { MessageCircle } from './icons/message-circle.ts';
import { Phone } from './icons/phone.ts';
import type { LucideIcon } from './icons/lucide-icon.tsx';
import type { AnchorHTMLAttributes } from 'react';
import { site } from '../content/site.ts';

interface ContactItem {
  icon: LucideIcon;
  label: string;
  text: string;
  /** One that opens a new tab says so, to screen readers only. */
  link: AnchorHTMLAttributes<HTMLAnchorElement>;
}

const { phone, email, location, instagram, whatsapp } = site.contactDetails;
const newTab = { rel: 'noopener', target: '_blank' } as const;
const items: ContactItem[] = [
  {
    icon: Phone,
    label: site.contactLabels.phone,
    text: phone.display,
    link: { href: `tel:${phone.international}` },
  },
  { icon: Mail, label: site.contactLabels.email, text: email, link: { href: `mailto:${email}` } },
  {
    icon: AtSign,
    label: site.contactLabels.instagram,
    text: instagram.text,
    link: { href: instagram.url, ...newTab },
  },
  ...(whatsapp
    ? [
        {
          icon: MessageCircle,
          label: site.contactLabels.whatsapp,
          text: whatsapp.text,
          link: { href: whatsapp.url, ...newTab },
        },
      ]
    : []),
  {
    icon: MapPin,
    label: site.contactLabels.location,
    text: location,
    link: { href: site.address.directionsUrl, ...newTab },
  },
];

/** The ways to reach the practice, without the location line (the footer gives the whole address). */
export const messageItems = items.filter((item) => item.label !== site.contactLabels.location);

/** Phone, e-mail and location (with directions), each a link a phone can act on. */
export function ContactDetails({
  className,
  only = items,
}: {
  className?: string;
  /** The items to list; all of them unless given. */
  only?: ContactItem[];
}) {
  return (
    <ul className={['contact-details', className].filter(Boolean).join(' ')}>
      {only.map(({ icon: ItemIcon, label, text, link }) => (
        <li key={label}>
          <span className="contact-icon">
            <ItemIcon aria-hidden="true" />
          </span>
          <span className="contact-text">
            <span className="contact-label">{label}</span>
            <a {...link}>
              {text}
              {link.target === newTab.target ? (
                <span className="visually-hidden">{site.chrome.opensInNewTab}</span>
              ) : null}
            </a>
          </span>
        </li>
      ))}
    </ul>
  );
}
