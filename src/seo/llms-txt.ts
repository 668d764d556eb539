import { bookingFields, isRequired } from '../../supabase/functions/_shared/core/booking-rules.ts';
import { wordJoiner, type SiteContent } from '../content/site.ts';
import { formatTime } from '../lib/opening-hours.ts';
import { absoluteUrl } from './html.ts';

/**
 * /llms.txt (llmstxt.org): what the practice offers, where and when, and how to
 * book, for assistants that read the site on a visitor's behalf. Built from the
 * content file, so it always says what the page says.
 */
export function llmsTxt(site: SiteContent): string {
  const link = (fragment: string) => absoluteUrl(site.url, fragment);
  const { address, contactDetails, bookingForm } = site;
  const hours = site.openingHours.map(
    (entry) => `- ${entry.label}: ${formatTime(entry.opens)} - ${formatTime(entry.closes)}`,
  );
  const fields = bookingFields.map((field) => {
    const label = bookingForm.labels[field].replace(/ \(Optional\)$/, '');
    return `  - ${label} (${isRequired(field) ? 'required' : 'optional'})`;
  });
  return [
    `# ${site.practiceName}`,
    '',
    `> ${site.seo.description}`,
    '',
    site.home.whatIs.statements.join(' '),
    '',
    `Address: ${[address.venue, address.building, address.road, address.town, address.city, address.postcode, address.country].join(', ')}.`,
    `Phone: ${contactDetails.phone.display}. E-mail: ${contactDetails.email}.`,
    '',
    'Opening hours (UK time):',
    ...hours,
    '',
    `Health notice: ${site.disclaimer}`,
    '',
    '## Booking',
    '',
    `- [Book a session](${link('/#contact')}): the booking request form. ${bookingForm.agentTool.description}`,
    `  The form asks for:`,
    ...fields,
    `  ${contactDetails.replyPromise}`,
    '',
    '## About the practice',
    '',
    `- [Home](${link('/')}): what Hijama is and who comes for it.`,
    `- [${site.benefits.heading}](${link('/#benefits')}): ${site.benefits.intro}`,
    `- [${site.testimonials.heading}](${link('/#testimonials')}): ${site.testimonials.intro}`,
    `- [${site.location.heading}](${link('/#location')}): address, opening hours and how to get here (${site.location.gettingHere.map((step) => step.text).join('; ')}).`,
    '',
  ]
    .join('\n')
    .replaceAll(wordJoiner, '');
}
