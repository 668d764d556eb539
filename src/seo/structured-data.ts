import type { SiteContent } from '../content/site.ts';
import { absoluteUrl } from './html.ts';

const dayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * The business as schema.org describes it, from the same content as the
 * visible page. Reviews are left out on purpose: search engines do not show
 * reviews a business publishes about itself, and the ones here are samples.
 */
export function businessStructuredData(site: SiteContent) {
  const { address } = site;
  return {
    '@context': 'https://schema.org',
    '@type': 'HealthAndBeautyBusiness',
    '@id': `${site.url}#business`,
    name: site.practiceName,
    description: site.seo.description,
    url: site.url,
    image: absoluteUrl(site.url, site.seo.shareImage.src),
    telephone: site.contactDetails.phone.international,
    email: site.contactDetails.email,
    address: {
      '@type': 'PostalAddress',
      streetAddress: [address.venue, address.building, address.road].join(', '),
      addressLocality: address.town,
      addressRegion: address.county,
      postalCode: address.postcode,
      addressCountry: address.countryCode,
    },
    areaServed: `${address.city}, ${address.county}`,
    hasMap: address.directionsUrl,
    openingHoursSpecification: site.openingHours.map((entry) => ({
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: entry.days.map((day) => dayNames[day]),
      opens: entry.opens,
      closes: entry.closes,
    })),
  };
}
