/**
 * Every word, number and contact detail of the site, in one place, so the
 * practitioner can change the text without touching a component.
 *
 * The practice's own facts (name, url, phone, e-mail, address, the reply
 * promise, how long requests are kept) come from
 * supabase/functions/_shared/content/practice.ts, which the e-mails share:
 * replace its PLACEHOLDERS there. The reviews come from reviews.ts, where the
 * eight shipped are SAMPLE reviews written to show the layout: replace them
 * with real reviews and their sources before going live.
 */
import { practice } from '../../supabase/functions/_shared/content/practice.ts';
import { firstVisit, practitioner, sessionPrices } from './before-booking.ts';
import { clinicTimeZone, openingHours, openingStatusWords } from './clinic-hours.ts';
import type { ImageSlot, PhotoSlot } from './image-slot.ts';
import type { PageName } from './page-names.ts';
import { ratingSummary, ratingSummaryWords, reviewSourceWords, reviews } from './reviews.ts';

export { pageNames, type PageName } from './page-names.ts';
export type { OpeningHours, Weekday } from './clinic-hours.ts';
export type { ReviewSource, Testimonial } from './reviews.ts';

/** Icons a who-can-benefit card may show; the home view maps each name to an SVG icon. */
export type AudienceIconName =
  'dumbbell' | 'briefcase' | 'activity' | 'moon-star' | 'zap' | 'sun' | 'heart';

/** Icons a benefit card may show; the benefits view maps each name to an SVG icon. */
export type BenefitIconName =
  | 'waves'
  | 'heart-pulse'
  | 'droplets'
  | 'brain'
  | 'activity'
  | 'leaf'
  | 'flame'
  | 'shield'
  | 'sparkles';

/** Icons a getting-here line may show. */
export type TravelIconName = 'train' | 'bus' | 'parking' | 'car';

interface NavigationItem {
  id: PageName;
  label: string;
}

export interface Card<Icon extends string> {
  icon: Icon;
  title: string;
  description: string;
}

const {
  name: practiceName,
  phone,
  email,
  replyWithinHours,
  address,
  instagram,
  whatsapp,
} = practice;

/** A view's title in the browser's tab and history, e.g. 'Benefits of Hijama · Rochester Hijama'. */
const viewTitle = (heading: string): string => `${heading} · ${practiceName}`;

/**
 * The invisible character after the hyphen of “e-mail” as the page shows it
 * (`eMail`): it keeps the word on one line (a line ending in “e-” reads as a
 * typo). Not a no-break hyphen: the fonts' subset has no glyph for it. Plain
 * text, which has no lines to break, goes without it (llms-txt.ts).
 */
export const wordJoiner = '\u2060';

const eMail = `e-${wordJoiner}mail`;

/**
 * How long booking requests are kept, as the privacy notice under the form
 * says (supabase/functions/_shared/content/practice.ts).
 */
export const retentionMonths = practice.retentionMonths;

export const site = {
  practiceName,
  /**
   * The address the site is published at (canonical link, sitemap, sharing):
   * SITE_URL as the build read it, practice.url outside the build.
   */
  url: typeof __SITE_URL__ === 'undefined' ? practice.url : __SITE_URL__,

  /** What search engines and link previews show. */
  seo: {
    title: `${practiceName} · Hijama cupping therapy in Rochester, Kent`,
    description: `Traditional Hijama (wet cupping) in a private, hygienic treatment room in Chatham, Rochester. Send a booking request and we reply within ${replyWithinHours} hours.`,
    /** The picture shown when the site is shared; 1200 × 630 PNG in public/. */
    shareImage: {
      src: '/og-image.png',
      width: 1200,
      height: 630,
      alt: `${practiceName}: traditional cupping therapy in Rochester, Kent`,
    } satisfies ImageSlot,
    /** The line under the name on the sharing picture (scripts/make-images.ts draws it). */
    shareTagline: `Traditional Hijama cupping therapy. Send a booking request; we reply within ${replyWithinHours} hours.`,
    themeColor: '#123c3a',
    backgroundColor: '#fbf7f0',
  },
  /** Shown under the practice name in the menu and the footer. */
  shortDescription: 'Traditional cupping therapy in Rochester, Kent',
  locale: 'en-GB',
  timeZone: clinicTimeZone,

  contactDetails: {
    phone,
    email,
    /** The short location line of the contact blocks. */
    location: 'Rochester, United Kingdom',
    replyPromise: `We reply within ${replyWithinHours} hours by ${eMail} or Instagram message.`,
    instagram: { text: `@${instagram}`, url: `https://www.instagram.com/${instagram}/` },
    /** Linked only where the practice has set a WhatsApp number. */
    whatsapp: whatsapp
      ? { text: whatsapp, url: `https://wa.me/${whatsapp.replace(/\D/g, '')}` }
      : null,
  },

  /** The council's skin-piercing registration, shown with the practitioner and in the footer. */
  registration: practice.skinPiercingRegistration,

  address: {
    ...address,
    /** Opens directions in a maps service; built from the address above. */
    directionsUrl: `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(
      [address.building, address.road, address.town, address.postcode, address.country].join(', '),
    )}`,
  },

  /** The hours, and the live line beside them (src/content/clinic-hours.ts). */
  openingHours,
  openingStatus: openingStatusWords,

  navigation: [
    { id: 'home', label: 'Home' },
    { id: 'benefits', label: 'Benefits' },
    { id: 'testimonials', label: 'Testimonials' },
    { id: 'location', label: 'Location' },
    { id: 'contact', label: 'Contact' },
  ] satisfies NavigationItem[],

  chrome: {
    skipLink: 'Skip to main content',
    openMenu: 'Open menu',
    closeMenu: 'Close menu',
    menuTitle: 'Menu',
    homeLink: `${practiceName}, home`,
    closeDialog: 'Close',
    footerNote: 'Hijama is a complementary therapy and does not replace medical care.',
    footerNavigation: 'Footer',
    healthNotice: 'Health notice',
    /** Read after a link that opens a new tab, by screen readers only. */
    opensInNewTab: ' (opens in a new tab)',
    /** The booking link of the top bar on wide screens, and of the bar fixed at the bottom of a phone's screen. */
    quickBook: 'Book a session',
    footerContact: 'Contact and opening hours',
    privacyLink: 'Privacy notice (under the booking form)',
  },

  bookButton: 'Book Your Session',

  home: {
    hero: {
      // No-break spaces keep “· Rochester” with “therapy”: a phone breaks before “therapy”, never after the dot.
      eyebrow: 'Traditional cupping therapy\u00a0·\u00a0Rochester, Kent',
      title: practiceName,
      lead: 'Calm, clean and unhurried Hijama with a trained practitioner, in a private treatment room in Chatham. Sterile single-use cups, time to talk, and aftercare you can follow.',
      reassurance: `Send a request in a minute. We reply within ${replyWithinHours} hours.`,
      /** The treatment room beside the hero text, photos/room.*; without it the drawn motif shows. */
      image: {
        photo: 'room',
        alt: 'The private treatment room in Chatham where sessions take place',
      } satisfies PhotoSlot,
    },
    whatIs: {
      heading: 'What is Hijama Cupping?',
      statements: [
        'Hijama, or wet cupping, is a traditional therapy practised for centuries across the Middle East, Asia and Europe. Cups placed on the skin create gentle suction over chosen points.',
        'After a few minutes, small superficial marks are made with a sterile blade and the cups are placed again to draw out a little blood. Every cup and blade is used once, then thrown away.',
        'Many clients come for relaxation and relief from tension, and many as a Sunnah practice. We talk through your health first, and we may ask you to check with your GP.',
      ],
    },
    whoCanBenefit: {
      heading: 'Who Can Benefit?',
      intro: 'People come to us for many reasons. These are the ones we hear most often.',
      cards: [
        {
          icon: 'dumbbell',
          title: 'Athletes',
          description:
            'Runners, footballers and fighters tell us cupping helps them feel loose and recover between hard sessions.',
        },
        {
          icon: 'briefcase',
          title: 'Office Workers',
          description:
            'Long hours at a desk leave necks, shoulders and lower backs tight; clients say a session eases that stiffness.',
        },
        {
          icon: 'activity',
          title: 'Chronic Pain Sufferers',
          description:
            'Some clients living with long-term aches use Hijama alongside the care their doctor provides.',
        },
        {
          icon: 'moon-star',
          title: 'People with Stress or Anxiety',
          description:
            'Quiet, unhurried time to breathe and talk. Many clients say they leave feeling calm and relaxed. If anxiety affects your daily life, please talk to your GP.',
        },
        {
          icon: 'zap',
          title: 'Fitness Enthusiasts',
          description:
            'Gym-goers and weekend cyclists book sessions to support mobility and the way their muscles feel.',
        },
        {
          icon: 'sun',
          title: 'Islamic Tradition',
          description:
            'Hijama is a Sunnah practice. We can arrange sessions on the recommended days of the lunar month.',
        },
      ] satisfies Card<AudienceIconName>[],
      cta: 'Book Your Session Now',
    },
    practitioner,
    sessions: sessionPrices,
    getInTouch: {
      heading: 'Get in Touch',
      /** The intro reads before, then the link to the booking view, then after. */
      intro: {
        before: `Questions before you book? Call, ${eMail} or `,
        link: 'send a booking request',
        after: ' and we will get back to you.',
      },
    },
  },

  benefits: {
    heading: 'Benefits of Hijama',
    subtitle: 'Discover the transformative effects of traditional cupping therapy',
    /** Questions a first-timer asks, after the cards (src/content/before-booking.ts). */
    firstVisit,
    intro:
      'What our clients most often tell us, and what Hijama can and cannot do. Everyone is different, and results vary from person to person.',
    cards: [
      {
        icon: 'waves',
        title: 'Relieve Muscle Tension',
        description:
          'The most common thing clients report: tight shoulders, necks and backs feel looser and lighter after a session.',
      },
      {
        icon: 'heart-pulse',
        title: 'Lower Blood Pressure',
        description:
          'Hijama does not treat high blood pressure, and it never replaces prescribed medication: keep taking yours, and tell us about it before your session.',
      },
      {
        icon: 'droplets',
        title: 'Remove Deoxygenated Blood',
        description:
          'In the traditional understanding of Hijama, wet cupping draws out stagnant blood from just beneath the skin. This is a belief of the tradition, not a medical finding.',
      },
      {
        icon: 'brain',
        title: 'Relieve Headaches',
        description:
          'Many clients tell us their neck and shoulders feel looser and lighter after a session. If you get frequent or severe headaches, please see your GP first.',
      },
      {
        icon: 'activity',
        title: 'Improve Blood Flow',
        description:
          'Suction brings blood to the surface of the treated area, which is why cupping leaves round marks that usually fade within a few days to a week.',
      },
      {
        icon: 'leaf',
        title: 'Soothe Eczema',
        description:
          'Hijama is not a treatment for eczema. If you have it, keep following your GP\u2019s advice and tell us before your session: we never cup over broken or inflamed skin.',
      },
      {
        icon: 'flame',
        title: 'Reduce Inflammation',
        description:
          'Cupping is traditionally used for aches and stiffness, and many clients say they move more easily afterwards. For swollen or painful joints, please see your GP first.',
      },
      {
        icon: 'shield',
        title: 'Boost Immune System',
        description:
          'Many clients book a seasonal session as part of looking after themselves, and say they feel refreshed. There is no good evidence that cupping boosts the immune system.',
      },
    ] satisfies Card<BenefitIconName>[],
  },

  testimonials: {
    heading: 'Client Testimonials',
    intro: 'Kind words from people who have visited us.',
    verifiedLabel: 'Verified Client',
    /** What a screen reader says for a review's stars. */
    ratingLabel: (rating: number): string => `Rated ${rating} out of 5`,
    reviews,
    /** The line under the intro, linked to where the reviews are; none is shown while null. */
    ratingSummary,
    ratingSummaryWords,
    sourceWords: reviewSourceWords,
  },

  location: {
    heading: 'Visit Us',
    intro:
      'A private treatment room inside a health club in Chatham, a short drive from Rochester town centre.',
    addressHeading: 'Address',
    hoursHeading: 'Opening Hours',
    gettingHereHeading: 'Getting Here',
    directionsLink: 'Get directions',
    gettingHere: [
      { icon: 'train', text: '10 minutes drive from Rochester Station' },
      { icon: 'train', text: '15 minutes from Chatham Station' },
      { icon: 'bus', text: 'Buses 101, 155 and 190 stop nearby on the main road' },
      { icon: 'parking', text: 'Free parking on premises' },
      { icon: 'car', text: 'Easy access from the A2 and M2' },
    ] satisfies { icon: TravelIconName; text: string }[],
    /** The next three Sunnah days (src/lib/sunnah-days.ts), under the directions. */
    sunnahDays: {
      heading: 'The Next Sunnah Days',
      intro:
        'Many of our clients choose the Sunnah days for Hijama: the 17th, 19th and 21st of the Islamic month.',
      note: 'Expected dates, from the Umm al-Qura calendar: each may move by a day with the moon sighting.',
    },
  },

  contact: {
    heading: 'Book Your Session',
    intro: `Send us a request and we will get back to you within ${replyWithinHours} hours by ${eMail} or Instagram message to agree a time. A request is not yet a confirmed appointment.`,
    detailsHeading: 'Contact details',
  },

  bookingForm: {
    /** Labels of the fields, in the order of supabase/functions/_shared/core/booking-rules.ts. */
    labels: {
      fullName: 'Full Name',
      phone: 'Phone Number',
      email: 'Email Address',
      instagram: 'Instagram Username (Optional)',
    },
    hints: {
      // No-break spaces: the example number is never split over two lines.
      phone: 'A UK mobile or landline, e.g. 07700\u00a0900\u00a0461.',
      instagram: 'If you would like us to reply by Instagram message.',
    },
    instagramPlaceholder: '@yourusername',
    requiredNote: 'Fields marked * are required.',
    submit: 'Book Your Session',
    submitting: 'Submitting...',
    sendingAnnouncement: 'Sending your booking request.',
    fixFieldsAnnouncement: (count: number) =>
      count === 1
        ? 'Please correct the field with an error.'
        : `Please correct the ${count} fields with errors.`,
    failure: 'There was an error submitting your request. Please try again.',
    /** Under the failure, so that a request that cannot be sent still reaches the practice; the phone number follows. */
    failureFallback: 'If it keeps failing, call or text us on',
    /**
     * When a send has waited too long for the page's code (src/boot/send-stalled.ts).
     * It promises nothing of what was typed: before the page's first script has
     * come nothing keeps it, and Safari empties the form on a reload. The phone
     * number follows, as a link.
     */
    sendStalled:
      'This page has not finished loading: your request is not sent yet. If this lasts, check your connection and reload the page, or call us on',
    /** When the page's code for the send did not come: the site was updated since the page loaded, or the connection dropped. */
    outdated:
      'Part of this page did not load: the site has just been updated, or the connection dropped. Please reload the page (what you typed is kept), then send again.',
    /** When too many requests came in a short time (from this visitor, or from robots). */
    throttled: `Too many requests have come from your connection in a short time. Please try again later. Every request that reached us gets a reply within ${replyWithinHours} hours.`,
    /** The hidden field that only robots fill (a honeypot); people never see it. */
    trap: {
      label: 'Website',
      agentDescription: 'Never fill this field: it catches spam robots. Leave it empty.',
    },
    /**
     * The privacy notice under the form (UK GDPR, article 13): who keeps what, why,
     * who else handles it, for how long, the visitor's rights and where to
     * complain. The period is `retentionMonths`, which the purge follows.
     */
    privacy: `We (${practiceName}) keep your name, phone number, ${eMail} address and Instagram username to reply to your request and arrange your session, as you ask us to, and delete them after ${retentionMonths} months. Only the services that run this site and deliver our messages handle them for us: we never sell them or add you to a mailing list. Your IP address is kept a day at most, to stop abuse. To see, correct or delete your details, ${eMail} ${email}; to complain, contact the Information Commissioner (ico.org.uk). Until you send it, what you type stays in this tab alone.`,
    /**
     * The form as a tool for browser assistants (WebMCP, declarative): its name,
     * what it does, what each field means, and what the assistant is told back.
     */
    agentTool: {
      name: 'request_hijama_booking',
      description: `Sends a booking request for a Hijama (cupping therapy) session at ${practiceName} in Chatham, Rochester, UK. It is a request, not a confirmed appointment: the practice replies within ${replyWithinHours} hours by e-mail or Instagram message to agree a time. The visitor reviews the filled form and sends it.`,
      fields: {
        fullName: 'The full name of the person who wants the session, e.g. Aisha Khan.',
        phone:
          'A phone number the practice can call or text, e.g. 07700 900461 or +44 1632 960461.',
        email: 'The e-mail address the practice should reply to, e.g. aisha@example.com.',
        instagram:
          'Only if the visitor would like a reply by Instagram message: their username, e.g. @aisha.k.',
      },
      replies: {
        sent: `The booking request was sent. The practice will reply within ${replyWithinHours} hours by e-mail or Instagram message to agree a time.`,
        refused: (problems: string) =>
          `The booking request was not sent. Please correct: ${problems}.`,
        failed:
          'The booking request could not be confirmed because of an error: it may not have arrived. Please send the form again as it is; sent again from this page, the same request is stored once.',
      },
    },
    success: {
      title: 'Thank You!',
      paragraphs: [
        'Your booking request has been submitted.',
        `Please keep an eye on your ${eMail} and your Instagram direct messages.`,
        `We will reach out within ${replyWithinHours} hours to agree a time for your session.`,
      ],
    },
  },

  contactLabels: {
    phone: 'Phone',
    email: 'Email',
    location: 'Location',
    instagram: 'Instagram',
    whatsapp: 'WhatsApp',
    address: 'Address',
    hours: 'Opening hours',
  },

  comingSoon: {
    heading: 'Coming Soon',
    text: 'This page is not ready yet. In the meantime, you can read about Hijama or send us a booking request.',
    homeLink: 'Back to the home page',
  },

  /** In place of a view whose code did not arrive: offline, or the site updated since the page was opened. */
  viewLoadFailed: {
    heading: 'This page did not load',
    text: 'The connection may have dropped, or the site has just been updated. Check your connection, then reload the page: what you typed in the booking form is kept.',
    reload: 'Reload the page',
  },

  /**
   * The page the "Mark as answered" link of a booking e-mail opens
   * (/#answer=…), for the practitioner alone: never in the menu or the sitemap.
   */
  answerPage: {
    heading: 'Mark a request answered',
    /** The request's short reference, as the e-mail shows it. */
    reference: (reference: string): string => `Request ${reference}`,
    intro: 'Replied to this client? Mark the request answered: it stops counting as waiting.',
    button: 'Mark as answered',
    marking: 'Marking…',
    answeredHeading: 'Marked as answered',
    /** `time` is when it was first marked, in UK time. */
    answeredAt: (time: string): string => `On ${time} (UK time).`,
    /** Takes back a mark made by a slip of the thumb. */
    undo: 'Undo',
    undoing: 'Undoing…',
    unmarkedHeading: 'Mark taken back',
    unmarked: 'The request is waiting for a reply again.',
    /** The link is not one the site signed, or not whole. */
    invalid: (reference = '<reference>'): string =>
      `This link is not valid. Open it again from the booking e-mail, or run: npx hijama answer ${reference}`,
    expired: (reference: string): string =>
      `This link has expired. Run: npx hijama answer ${reference}`,
    notStored: 'This request is no longer stored (it was deleted): there is nothing to mark.',
    failed: 'The connection failed. Check it and try again.',
  },

  disclaimer:
    'Hijama is a complementary therapy. It does not replace diagnosis or treatment by your GP or another medical professional, and results vary from person to person. Please tell us about any medical conditions or medication before your session.',
} as const;

export type SiteContent = typeof site;

/** Each view's title in the browser's tab and history; home keeps the search engines' title. */
export const viewTitles = {
  home: site.seo.title,
  benefits: viewTitle(site.benefits.heading),
  testimonials: viewTitle(site.testimonials.heading),
  location: viewTitle(site.location.heading),
  contact: viewTitle(site.contact.heading),
  answer: viewTitle(site.answerPage.heading),
  'coming-soon': viewTitle(site.comingSoon.heading),
  // In the place of a view whose code did not arrive (src/app/view-load-boundary.tsx).
  'load-failed': viewTitle(site.viewLoadFailed.heading),
} as const satisfies Record<PageName | 'answer' | 'coming-soon' | 'load-failed', string>;
