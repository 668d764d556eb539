/**
 * The practice's own facts: its name, where the site is published, how to
 * reach it, where it is and the one promise the site makes. The page
 * (src/content/site.ts) and the e-mails sent in the practice's name, by the
 * Node server and by the Edge Function alike, all take them from here.
 *
 * PLACEHOLDERS: the phone number, e-mail address, Instagram username, council
 * registration number, street address, postcode and url below are examples (the phone number is from Ofcom's range reserved for
 * fiction; the e-mail and the site use the reserved `.example` domain).
 * Replace them with the practice's real details before going live.
 */
export const practice = {
  name: 'Rochester Hijama',

  /** PLACEHOLDER: the address the site is published at, with a trailing slash (canonical link, sitemap, sharing, the e-mails' links). */
  url: 'https://www.rochester-hijama.example/',

  phone: {
    /** PLACEHOLDER: replace with the practice's number. */
    display: '07700 900 123',
    /** The same number in international form, for tel: links. */
    international: '+447700900123',
  },

  /** PLACEHOLDER: replace with the practice's e-mail address. */
  email: 'bookings@rochester-hijama.example',

  /**
   * PLACEHOLDER: the practice's Instagram username, without the @ (this one is
   * an example that belongs to nobody). Visitors come from there and replies go there.
   */
  instagram: 'rochesterhijama.example',

  /**
   * The WhatsApp number in international form (e.g. '+447700900123'), or null
   * where the practice takes no WhatsApp messages: the page links it only when set.
   */
  whatsapp: null as string | null,

  /**
   * PLACEHOLDER: the council registration for skin piercing (special treatment
   * licence) the practice holds, as its certificate words it; null where it holds none.
   */
  skinPiercingRegistration:
    'Registered with Medway Council for skin piercing (registration number PLACEHOLDER)' as
      string | null,

  address: {
    /** PLACEHOLDER venue, club, road and postcode: replace with the real address. */
    venue: 'The Treatment Rooms, Health & Beauty Suite',
    building: 'Inside Medway Health Club',
    road: '1 Example Road',
    town: 'Chatham',
    city: 'Rochester',
    county: 'Kent',
    postcode: 'ME4 0XX',
    country: 'United Kingdom',
    /** ISO 3166 code of the country, for search engines. */
    countryCode: 'GB',
  },

  /**
   * The promise the site makes: a reply to every booking request within this
   * many hours. Every sentence that states it is built from this number, and a
   * request's reply-by time is when it arrived plus these hours.
   */
  replyWithinHours: 24,

  /**
   * How long booking requests are kept, as the privacy notice says: the server
   * and the Edge Function delete older ones daily unless RETENTION says otherwise.
   */
  retentionMonths: 12,
} as const;
