import { site } from '../content/site.ts';
import { ContactDetails, messageItems } from '../components/contact-details.tsx';
import { CupMark } from '../components/cup-mark.tsx';
import { OpeningHoursTable } from '../components/opening-hours-table.tsx';
import { PageLink } from '../navigation/page-link.tsx';

const { address } = site;
const addressLines = [
  address.venue,
  address.building,
  address.road,
  `${address.town}, ${address.city}`,
  `${address.postcode}, ${address.country}`,
];

/** Everything a visitor may look for at the end of any view: where, when, how to reach us, and the small print. */
export function Footer() {
  return (
    <footer className="site-footer">
      <div className="container footer-inner">
        <div className="footer-brand">
          <CupMark className="brand-mark" />
          <div>
            <p className="footer-name">{site.practiceName}</p>
            <p>{site.shortDescription}</p>
          </div>
        </div>
        <nav aria-label={site.chrome.footerNavigation}>
          <ul className="footer-links">
            {site.navigation.map((item) => (
              <li key={item.id}>
                <PageLink page={item.id}>{item.label}</PageLink>
              </li>
            ))}
          </ul>
        </nav>
        <section className="footer-contact" aria-label={site.chrome.footerContact}>
          <div>
            <p className="footer-label">{site.contactLabels.address}</p>
            <p className="footer-address">
              <a href={address.directionsUrl} rel="noopener" target="_blank">
                {addressLines.map((line) => (
                  <span key={line}>{line}</span>
                ))}
                <span className="visually-hidden">{site.chrome.opensInNewTab}</span>
              </a>
            </p>
          </div>
          <ContactDetails className="footer-details" only={messageItems} />
          <div>
            <p className="footer-label">{site.contactLabels.hours}</p>
            <OpeningHoursTable compact />
          </div>
        </section>
        <div className="footer-small-print">
          <p>{site.chrome.footerNote}</p>
          {site.registration ? <p>{site.registration}</p> : null}
          <p>
            <PageLink page="contact" className="inline-link">
              {site.chrome.privacyLink}
            </PageLink>
          </p>
        </div>
      </div>
    </footer>
  );
}
