/**
 * What a first-timer looks for before booking: who the practitioner is, what a
 * session costs and how long it takes, and plain answers to the usual
 * questions. Part of the content (site.ts includes it).
 *
 * PLACEHOLDERS: every value marked PLACEHOLDER below is an example, to be
 * replaced with the practice's own before going live (docs/content.md). Health
 * wording says what clients report and what the practice does, never a promise.
 */
import type { PhotoSlot } from './image-slot.ts';

/** The person a visitor will meet. */
export interface Practitioner {
  heading: string;
  name: string;
  /** One line under the name: what they do. */
  role: string;
  /** Their photograph, photos/practitioner.*; without it the drawn mark shows. */
  portrait: PhotoSlot;
  /** Courses, certificates and the bodies that awarded them. */
  training: readonly string[];
  insurance: string;
  /** Who sees women clients, or women-only times; null where nothing particular is offered. */
  womenClients: string | null;
  /** One line in the practitioner's own words. */
  personalLine: string;
  labels: { training: string; insurance: string; registration: string; women: string };
}

/** One kind of session, as the price list shows it. */
export interface Session {
  name: string;
  description: string;
  /** About how long the visit takes, in minutes, the talk before included. */
  minutes: number;
  /** The lowest price, in whole pounds. */
  fromPounds: number;
}

/** A question a first-timer asks, with the practice's answer. */
interface Question {
  question: string;
  /** Paragraphs of the answer. */
  answer: readonly string[];
}

/** PLACEHOLDER: the practitioner's name as clients should know it. */
const practitionerName = 'PLACEHOLDER Practitioner Name';

export const practitioner = {
  heading: 'Your practitioner',
  name: practitionerName,
  /** PLACEHOLDER */
  role: 'Hijama practitioner',
  /** Add photos/practitioner.jpg (docs/content.md, Pictures); until then the drawn mark shows. */
  portrait: {
    photo: 'practitioner',
    alt: `${practitionerName}, your Hijama practitioner`,
  },
  /** PLACEHOLDER: each course or certificate, with who awarded it and the year. */
  training: [
    'PLACEHOLDER: Hijama (wet cupping) certificate, school and year',
    'PLACEHOLDER: First aid at work, awarding body and year',
    'PLACEHOLDER: Infection prevention and control, awarding body and year',
  ],
  /** PLACEHOLDER: the insurer and what the cover is. */
  insurance: 'PLACEHOLDER: Fully insured for Hijama and cupping therapy with (insurer name).',
  /** PLACEHOLDER: say what is offered, or set to null. */
  womenClients:
    'PLACEHOLDER: A woman practitioner sees women clients; say so here, or set this to null.',
  /** PLACEHOLDER: one line, in the practitioner's own words. */
  personalLine:
    'PLACEHOLDER: One line in your own words, e.g. why you practise Hijama and what clients can expect of you.',
  labels: {
    training: 'Training and qualifications',
    insurance: 'Insurance',
    registration: 'Council registration',
    women: 'Women clients',
  },
} as const satisfies Practitioner;

/** The session the first-visit answers speak of. */
const wetCupping = {
  name: 'Wet cupping (Hijama)',
  description: 'The traditional session: cups, small superficial marks, cups again.',
  /** PLACEHOLDER */
  minutes: 60,
  /** PLACEHOLDER */
  fromPounds: 45,
} satisfies Session;

export const sessionPrices = {
  heading: 'Sessions and prices',
  intro: 'Every session starts with a talk about your health. Prices are for one person.',
  /** How a session's length and price read, e.g. 'About 45 minutes · from £40'. */
  terms: (minutes: number, pounds: number): string => `About ${minutes} minutes · from £${pounds}`,
  /** PLACEHOLDER: set to true once every length and price below is the practice's own. */
  confirmed: false,
  /** Shown under the list until then, so that no visitor takes an example for a price. */
  placeholderNote: 'PLACEHOLDER: example lengths and prices, not yet the practice\u2019s own.',
  sessions: [
    wetCupping,
    {
      name: 'Dry cupping',
      description: 'Cups and gentle suction only, with no marks made in the skin.',
      /** PLACEHOLDER */
      minutes: 45,
      /** PLACEHOLDER */
      fromPounds: 35,
    },
    {
      name: 'Sunnah day session',
      description: 'Wet cupping on one of the recommended days of the lunar month.',
      /** PLACEHOLDER */
      minutes: 60,
      /** PLACEHOLDER */
      fromPounds: 50,
    },
  ] satisfies Session[],
};

const contentFile = 'src/content/before-booking.ts';

/**
 * One line per fact of this file still an example, saying what to do: every
 * text that says PLACEHOLDER, and the prices until they are confirmed. For
 * the launch list (reviews.ts, launchPlaceholders).
 */
export function beforeBookingPlaceholdersLeft(content: {
  practitioner: object;
  sessionPrices: { confirmed: boolean };
}): string[] {
  const texts = placeholderTexts(content.practitioner).map(
    (at) =>
      `The practitioner's ${at} is still a PLACEHOLDER: replace practitioner.${at} in ${contentFile}, then rebuild (npm run build).`,
  );
  if (!content.sessionPrices.confirmed) {
    texts.push(
      `The sessions' lengths and prices are still examples: put in the practice's own in sessionPrices in ${contentFile}, set confirmed to true, then rebuild (npm run build).`,
    );
  }
  return texts;
}

/** Where in `value` a text still says PLACEHOLDER, as a path such as 'training[0]'. */
function placeholderTexts(value: unknown, at = ''): string[] {
  if (typeof value === 'string') return value.includes('PLACEHOLDER') ? [at] : [];
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => placeholderTexts(item, `${at}[${index}]`));
  }
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) =>
      placeholderTexts(item, at ? `${at}.${key}` : key),
    );
  }
  return [];
}

export const firstVisit = {
  heading: 'Your first visit',
  intro: 'The questions first-timers ask us most, answered plainly.',
  /** Add photos/kit.jpg (docs/content.md, Pictures); until then the questions stand alone. */
  photo: {
    photo: 'kit',
    alt: 'A sealed, sterile single-use cupping kit, opened fresh for each client',
  } satisfies PhotoSlot,
  questions: [
    {
      question: 'Does it hurt?',
      answer: [
        'Most clients describe the suction as a firm pull and the small marks as a quick scratch. We go at your pace and stop whenever you ask.',
      ],
    },
    {
      question: 'How long does a session take?',
      answer: [
        // From the price list, so that the two never disagree.
        `About ${wetCupping.minutes} minutes for wet cupping, the talk about your health included. A first visit can take a little longer.`,
      ],
    },
    {
      question: 'What should I wear?',
      answer: [
        'Loose, comfortable clothes, dark if you can: a top that is easy to take off or lift. We give you a towel or gown and you are covered apart from the area we treat.',
      ],
    },
    {
      question: 'Should I eat before?',
      answer: [
        'Have a light meal two to three hours before, and drink water. Please do not come on an empty stomach or straight after a heavy meal.',
      ],
    },
    {
      question: 'How long do the marks last?',
      answer: [
        'The round marks from the cups usually fade within a few days to a week; clients tell us the small cuts heal in about the same time. Everyone is different.',
      ],
    },
    {
      question: 'What aftercare will I need?',
      answer: [
        'Keep the treated area covered and dry for the rest of the day, and avoid hot baths, saunas, swimming and hard exercise for 24 hours.',
        'Drink plenty of water and eat lightly. We give you written aftercare at the end of your session, and you can message us with any question.',
      ],
    },
    {
      question: 'Who should not have Hijama?',
      answer: [
        'Hijama is not suitable for everyone. We do not treat during pregnancy.',
        'We may not treat you, or may ask you to check with your GP first, if you take blood thinners or have anaemia, a bleeding disorder, diabetes, a heart condition or a pacemaker. The same goes if you are unwell or have a fever, or have broken or inflamed skin where the cups would go.',
        'We will ask about your health first, before anything begins.',
      ],
    },
  ] satisfies Question[],
};
