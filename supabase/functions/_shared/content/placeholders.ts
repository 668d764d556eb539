import { siteUrlFrom, siteUrlProblem } from './site-url.ts';

/**
 * The example facts practice.ts ships with (marked PLACEHOLDER there), kept as
 * data so that `npx hijama check` and the server's start can say which of them
 * are still in the content: a fact equal to its example, or still saying
 * PLACEHOLDER, has not been replaced.
 */

/** The facts of practice.ts that ship as examples. */
export interface PracticeFacts {
  phone: { display: string; international: string };
  email: string;
  instagram: string;
  skinPiercingRegistration: string | null;
  address: { venue: string; building: string; road: string; postcode: string };
}

interface PlaceholderFact {
  /** What the deployer replaces, as the message names it. */
  name: string;
  /** Where the deployer replaces it. */
  where: string;
  /** The fact as the content has it; null for one the practice has taken out. */
  current(facts: PracticeFacts): string | null;
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
    name: 'Instagram username',
    where: `instagram in ${practiceFile}`,
    current: (facts) => facts.instagram,
    example: 'rochesterhijama.example',
  },
  {
    name: 'council registration',
    where: `skinPiercingRegistration in ${practiceFile} (or null where the practice holds none)`,
    current: (facts) => facts.skinPiercingRegistration,
    example: 'Registered with Medway Council for skin piercing (registration number PLACEHOLDER)',
  },
  {
    name: 'venue',
    where: `address.venue in ${practiceFile}`,
    current: (facts) => facts.address.venue,
    example: 'The Treatment Rooms, Health & Beauty Suite',
  },
  {
    name: 'building',
    where: `address.building in ${practiceFile}`,
    current: (facts) => facts.address.building,
    example: 'Inside Medway Health Club',
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

/**
 * The digits a number dials, in international form without the '+': a UK
 * number written from its leading 0 ('07700 900 123') becomes '447700900123'.
 */
function dialledDigits(number: string): string {
  const digits = number.replace(/\D/g, '');
  return number.trim().startsWith('+') ? digits : digits.replace(/^0/, '44');
}

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
    .filter((fact) => {
      const current = fact.current(facts);
      return current === fact.example || Boolean(current?.includes('PLACEHOLDER'));
    })
    .map(
      (fact) =>
        `The practice's ${fact.name} is still the example "${fact.current(facts)}": replace ${fact.where}, then rebuild (npm run build).`,
    );
  // The page, the footer and the visitor's e-mail show `display`; their links dial
  // `international`. One replaced without the other shows one number and rings another.
  const { display, international } = facts.phone;
  if (dialledDigits(display) !== dialledDigits(international)) {
    lines.push(
      `The practice's phone number is shown as "${display}" but its links dial ${international}: make phone.display and phone.international in ${practiceFile} the same number, then rebuild (npm run build).`,
    );
  }
  const siteUrl = siteUrlLeft(siteUrlSetting);
  if (siteUrl) lines.push(siteUrl);
  return lines;
}

/** What to do while SITE_URL is unset or still an example address (the Edge Function says it too). */
export function siteUrlLeft(siteUrlSetting: string | undefined): string | undefined {
  const setting = siteUrlSetting?.trim() || undefined;
  const stillExample =
    setting !== undefined && !siteUrlProblem(setting) && isExampleUrl(siteUrlFrom(setting));
  if (setting !== undefined && !stillExample) return undefined;
  return `SITE_URL is ${setting === undefined ? 'not set' : `still the example ${siteUrlFrom(setting)}`}: set it to the site's address (e.g. SITE_URL=https://www.your-practice.co.uk/) for the server, the Edge Function's secrets and the build, or every link in the e-mails and pushes leads nowhere.`;
}
