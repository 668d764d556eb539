import { siteUrlFrom, siteUrlProblem } from './site-url.ts';

/**
 * The example facts practice.ts ships with (marked PLACEHOLDER there), kept as
 * data so that `npx hijama check` and the server's start can say which of them
 * are still in the content: a fact equal to its example has not been replaced.
 */

/** The facts of practice.ts that ship as examples. */
export interface PracticeFacts {
  phone: { international: string };
  email: string;
  address: { venue: string; road: string; postcode: string };
}

interface PlaceholderFact {
  /** What the deployer replaces, as the message names it. */
  name: string;
  /** Where the deployer replaces it. */
  where: string;
  current(facts: PracticeFacts): string;
  /** The example value shipped in practice.ts. */
  example: string;
}

const practiceFile = 'supabase/functions/_shared/content/practice.ts';

const placeholderFacts: readonly PlaceholderFact[] = [
  {
    name: 'phone number',
    where: `phone in ${practiceFile}`,
    current: (facts) => facts.phone.international,
    example: '+447700900123',
  },
  {
    name: 'e-mail address',
    where: `email in ${practiceFile}`,
    current: (facts) => facts.email,
    example: 'bookings@rochester-hijama.example',
  },
  {
    name: 'venue',
    where: `address.venue in ${practiceFile}`,
    current: (facts) => facts.address.venue,
    example: 'The Treatment Rooms, Health & Beauty Suite',
  },
  {
    name: 'street address',
    where: `address.road in ${practiceFile}`,
    current: (facts) => facts.address.road,
    example: '1 Example Road',
  },
  {
    name: 'postcode',
    where: `address.postcode in ${practiceFile}`,
    current: (facts) => facts.address.postcode,
    example: 'ME4 0XX',
  },
];

/** The `.example` domain is reserved: no site is ever published there. */
function isExampleUrl(url: string): boolean {
  return /\.example$/i.test(new URL(url).hostname);
}

/**
 * One line per placeholder still in the content, saying what to do; empty
 * when none is left. `siteUrlSetting` is SITE_URL as set (a value it refuses
 * is reported by the settings, not here).
 */
export function placeholdersLeft(
  facts: PracticeFacts,
  siteUrlSetting: string | undefined,
): string[] {
  const lines = placeholderFacts
    .filter((fact) => fact.current(facts) === fact.example)
    .map(
      (fact) =>
        `The practice's ${fact.name} is still the example "${fact.current(facts)}": replace ${fact.where}, then rebuild (npm run build).`,
    );
  const setting = siteUrlSetting?.trim() || undefined;
  const stillExample =
    setting !== undefined && !siteUrlProblem(setting) && isExampleUrl(siteUrlFrom(setting));
  if (setting === undefined || stillExample) {
    lines.push(
      `SITE_URL is ${setting === undefined ? 'not set' : `still the example ${siteUrlFrom(setting)}`}: set it to the site's address (e.g. SITE_URL=https://www.your-practice.co.uk/) for the server, the Edge Function's secrets and the build, or every link in the e-mails and pushes leads nowhere.`,
    );
  }
  return lines;
}
