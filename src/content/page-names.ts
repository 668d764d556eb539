/** The views of the page, in menu order. Any other page name shows 'Coming Soon'. */
export const pageNames = ['home', 'benefits', 'testimonials', 'location', 'contact'] as const;

export type PageName = (typeof pageNames)[number];
