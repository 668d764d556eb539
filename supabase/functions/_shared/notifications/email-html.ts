import { practice } from '../content/practice.ts';
import { brandColours } from '../core/brand-colours.ts';

/**
 * What every e-mail to the practice or the visitor is made of: text made safe
 * for a line or for HTML, the site's colours (supabase/functions/_shared/core/brand-colours.ts) for mail
 * clients that take no style sheet, and the button that holds in them.
 */

// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const controlCharacters = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** One line of plain text: control characters become spaces. */
export function plainText(value: string): string {
  return value.replace(controlCharacters, ' ');
}

/**
 * Letters written right to left: Hebrew, Arabic, Syriac, Thaana, N'Ko and their
 * presentation forms, and beyond the first plane Adlam, Hanifi Rohingya and the rest.
 */
const rightToLeft =
  /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/**
 * A visitor's name as plain text, set apart from its line (Unicode's
 * first-strong isolate) where it is written right to left: an Arabic name at
 * the start of a line otherwise turns the whole line right to left where a
 * client takes a line's direction from its first letter (a phone's
 * notifications, plain-text mail), its brackets and numbers reordered.
 */
export function plainName(name: string): string {
  const text = plainText(name);
  return rightToLeft.test(text) ? `\u2068${text}\u2069` : text;
}

const htmlEntities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Safe in HTML text and in double- or single-quoted attribute values. */
export function escapeHtml(value: string): string {
  return plainText(value).replace(/[&<>"']/g, (character) => htmlEntities[character]!);
}

/** The site's colours (src/styles/base.css), for an e-mail that can take no style sheet. */
export const colours = {
  page: brandColours.sand50,
  card: '#ffffff',
  border: brandColours.sand200,
  ink: brandColours.ink,
  muted: brandColours.inkMuted,
  heading: brandColours.teal800,
  onHeading: brandColours.creamOnDark,
  accent: brandColours.copper600,
  accentTint: brandColours.copper100,
  quiet: brandColours.teal50,
  quietBorder: brandColours.teal600,
} as const;

// A name, address or handle without spaces wraps rather than widening the e-mail past a phone's screen.
export const breakAnywhere = 'overflow-wrap:anywhere;word-break:break-word';

export const fontStack =
  "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

/** The headings' serif, standing in for the site's Fraunces, which e-mail clients lack. */
export const headingFontStack = "Georgia,'Times New Roman',serif";

/**
 * A command to type, in code type, each word whole on its line: a phone wraps
 * after any hyphen, and "--limit" would read as "-" and "-limit".
 */
export function commandHtml(command: string): string {
  const words = command
    .split(' ')
    .map((word) => `<span style="white-space:nowrap">${escapeHtml(word)}</span>`);
  return `<code style="background-color:${colours.quiet};padding:2px 4px">${words.join(' ')}</code>`;
}

/** A line of an e-mail's plain text as HTML: a `command` in backticks shown as commandHtml. */
export function textLineHtml(line: string): string {
  return line
    .split('`')
    .map((part, index) => (index % 2 === 1 ? commandHtml(part) : escapeHtml(part)))
    .join('');
}

/** A link in an e-mail's text, in the heading's colour; its label alone where it leads nowhere. */
export function linkHtml(label: string, href: string | undefined): string {
  return href === undefined
    ? escapeHtml(label)
    : `<a href="${escapeHtml(href)}" style="color:${colours.heading}">${escapeHtml(label)}</a>`;
}

/**
 * A button that holds in mail clients: a block link with padding and a line
 * height (12 + 24 + 12 px, plus the border: 52 px, above the 44 px a finger
 * needs), inside a cell that carries the background where padding is ignored.
 */
export function buttonHtml(
  { label, href }: { label: string; href: string },
  primary: boolean,
): string {
  const background = primary ? colours.accent : colours.quiet;
  const text = primary ? '#ffffff' : colours.heading;
  const border = primary ? colours.accent : colours.quietBorder;
  return [
    '<tr><td style="padding:0 0 12px">',
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:separate">',
    `<tr><td align="center" bgcolor="${background}" style="background-color:${background};border-radius:10px">`,
    `<a href="${escapeHtml(href)}" style="display:block;min-height:24px;padding:12px 16px;border:2px solid ${border};border-radius:10px;background-color:${background};color:${text};font-family:${fontStack};font-size:17px;font-weight:bold;line-height:24px;text-align:center;text-decoration:none">${escapeHtml(label)}</a>`,
    '</td></tr></table>',
    '</td></tr>',
  ].join('');
}

/**
 * Every HTML e-mail's document up to its card: a card no wider than 560 px on
 * the site's colours, held by tables for the mail clients that drop style
 * sheets. `preheader` is the line an inbox shows beside the subject.
 */
export function emailOpening(title: string, preheader: string): string[] {
  return [
    '<!doctype html>',
    '<html lang="en-GB"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light"><meta name="supported-color-schemes" content="light">',
    `<title>${escapeHtml(title)}</title></head>`,
    `<body style="margin:0;padding:0;background-color:${colours.page};color:${colours.ink};font-family:${fontStack};font-size:16px;line-height:24px">`,
    `<div style="display:none;max-height:0;overflow:hidden;mso-hide:all">${escapeHtml(preheader)}</div>`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="${colours.page}" style="background-color:${colours.page}">`,
    // The text style again on a cell: some mail clients drop the body's.
    `<tr><td align="center" style="padding:16px 12px;color:${colours.ink};font-family:${fontStack};font-size:16px;line-height:24px">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="${colours.card}" style="max-width:560px;background-color:${colours.card};border:1px solid ${colours.border};border-collapse:separate;border-radius:12px">`,
  ];
}

/** The end of the card, the page and the document that emailOpening began. */
export const emailClosing = ['</td></tr></table>', '</td></tr></table>', '</body></html>', ''];

/** What an e-mail to the practice puts in the shared frame of emailDocument. */
interface EmailFrame {
  /** The document's title, and the heading's large line. */
  title: string;
  /** The line an inbox shows beside the subject. */
  preheader: string;
  /** The small line above the heading: "Reminder", "Daily summary". */
  kind: string;
  /** The card's content, as HTML. */
  content: readonly string[];
}

/**
 * The frame of a message to the practice: a card no wider than 560 px on the
 * site's colours, its heading in the dark band. Tables, not styles, hold it
 * together in the mail clients that drop style sheets.
 */
export function emailDocument({ title, preheader, kind, content }: EmailFrame): string {
  return [
    ...emailOpening(title, preheader),
    `<tr><td bgcolor="${colours.heading}" style="padding:16px 20px;background-color:${colours.heading};border-radius:11px 11px 0 0;color:${colours.onHeading};${breakAnywhere}">`,
    `<p style="margin:0;font-size:14px;line-height:20px;color:${colours.onHeading}">${escapeHtml(practice.name)} · ${escapeHtml(kind)}</p>`,
    `<h1 style="margin:4px 0 0;font-family:${headingFontStack};font-size:24px;font-weight:normal;line-height:30px;color:#ffffff">${escapeHtml(title)}</h1>`,
    '</td></tr>',
    `<tr><td style="padding:20px 20px 12px;${breakAnywhere}">`,
    ...content,
    ...emailClosing,
  ].join('\n');
}
