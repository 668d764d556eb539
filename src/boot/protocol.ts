/**
 * The page's DOM contract: what the pre-render step writes into the HTML, what
 * the boot scripts (src/boot/) do with it before the first paint, what the
 * React script adopts, what the server must know of the files, and what the
 * browser tests wait for. Every one of them imports these names from here.
 *
 * It imports nothing: the boot scripts, the server and the tests load it as is.
 * (src/styles/layout.css repeats the pending attribute in a selector; a test
 * holds the two together.)
 */

/** The element the React app renders into; pre-rendered home is in it. */
export const rootElementId = 'root';

/** The <main> element, whose `viewAttribute` names the view it shows. */
export const mainElementId = 'main';

/** On <main>: the view rendered in it ('home', 'contact', 'coming-soon'…). */
export const viewAttribute = 'data-view';

/** On <main>: the title of the view rendered in it, which whatever puts the view in place gives the document. */
export const titleAttribute = 'data-title';

/**
 * Marks the top of a view whose booking button, or heading, the fixed booking
 * button of a phone's screen stands in for once it has scrolled out of view.
 */
export const bookingHeroClass = 'booking-hero';

/** On <html>: the view's `bookingHeroClass` element is out of view, so the fixed booking button shows. */
export const bookingHeroAwayAttribute = 'data-booking-hero-away';

/**
 * On <html>: the view the address asks for is not on screen yet (its file is
 * being fetched, or the script renders it). The page is hidden meanwhile, so
 * that home never flashes before another view.
 */
export const viewPendingAttribute = 'data-view-pending';

/**
 * On <html>: the page's script has run and the view answers to clicks. Until
 * then, forms are not sent (the boot script holds them back).
 */
export const interactiveAttribute = 'data-interactive';

/**
 * On <html>: the React app has adopted the page (on most views, at the
 * visitor's first interaction; see src/main.tsx).
 */
export const appAdoptedAttribute = 'data-app';

/** The top bar's button that opens the side menu. */
export const menuButtonClass = 'menu-button';

/**
 * On <html>: the menu button was tapped before the page's first script could
 * answer; the boot script opened the menu and notes it for the first script.
 */
export const menuAskedAttribute = 'data-menu-asked';

/** The side menu's <dialog>. */
export const sideMenuClass = 'side-menu';

/** The side menu's button that closes it. */
export const closeMenuClass = 'side-menu-close';

/** The top bar, whose `scrolledAttribute` says whether the page is scrolled down. */
export const navBarClass = 'nav-bar';
export const scrolledAttribute = 'data-scrolled';

/**
 * On the empty <script> the server render puts after home's first-screen photo,
 * which it holds in a <noscript> (src/components/photo.tsx); the pre-render step
 * fills it with the boot script that puts the photo in place where the page
 * arrives at home (src/boot/home-photo.ts). Every address is served the same
 * HTML, home's markup in it: an <img> there would be fetched on every view (the
 * browser's preload scanner finds it before any script runs), while a
 * <noscript>'s content is only text to a browser that runs scripts.
 */
export const homePhotoScriptAttribute = 'data-home-photo';

/** The id of the <script type="application/json"> holding the `BootManifest`. */
export const bootManifestId = 'boot';

/** The booking form (sent by the app; held until then, src/booking/form-before-app.ts). */
export const bookingFormClass = 'booking-form';

/**
 * On <html>: a form was sent before the page's first script had run; the boot
 * script held it back and notes it for the first script, which has it sent.
 */
export const sendAskedAttribute = 'data-send-asked';

/**
 * On <html>: a send has waited for the app longer than it should (the page's
 * code is slow to come, or failed to), and the booking form says so, the style
 * sheet showing its notice. Set `sendStalledAfterMs` after a send the app has
 * not made by then (src/boot/send-stalled.ts); removed when the app adopts the
 * page, which makes the send.
 */
export const sendStalledAttribute = 'data-send-stalled';

/** Long enough for the app's code (about 85 KB) on a slow phone connection. */
export const sendStalledAfterMs = 8000;

const bootManifestStart = `<script type="application/json" id="${bootManifestId}">`;
const bootManifestEnd = '</script>';

/**
 * The manifest's element in the page, around its JSON (escaped so that nothing
 * in it can close the element).
 */
export function bootManifestElement(escapedJson: string): string {
  return `${bootManifestStart}${escapedJson}${bootManifestEnd}`;
}

/** The manifest written into a page's HTML (for the tools that read the built page). */
export function bootManifestIn(html: string): BootManifest {
  const start = html.indexOf(bootManifestStart);
  const end = html.indexOf(bootManifestEnd, start);
  if (start < 0 || end < 0) throw new Error('The page has no boot manifest.');
  return JSON.parse(html.slice(start + bootManifestStart.length, end)) as BootManifest;
}

/** What the pre-render step tells the boot script about the built files. */
export interface BootManifest {
  /** The main module script, started after the first paint. */
  mainScript: string;
  /** Added once the first screen is painted: nothing stands in its way. */
  afterFirstPaint: {
    /** The web manifest. */
    manifest: string;
  };
  /** Pages pre-rendered into the HTML, each as a <template> (see `inPageTemplateId`). */
  inPageViews: readonly string[];
  /** Pages pre-rendered into files of their own: page name → the file's path. */
  viewFiles: Readonly<Record<string, string>>;
  /** Each page's own code (its chunks): page name → paths to preload. */
  viewChunks: Readonly<Record<string, readonly string[]>>;
}

/** The <template> holding a page pre-rendered into the HTML. */
export function inPageTemplateId(pageName: string): string {
  return `view-${pageName}`;
}

/**
 * Where the pre-rendered file of a page goes, named by its content's hash.
 * `.htm`, not `.html`: Cloudflare Pages answers a `.html` address with a
 * redirect to the address without it, a round trip more before the page shows.
 */
export function viewFilePath(pageName: string, contentHash: string): string {
  return `/assets/view-${pageName}-${contentHash}.htm`;
}

/**
 * A pre-rendered page file (a part of the page, for the boot script to fetch),
 * not a page to open: the server sends it with no policy of its own and asks
 * search engines not to list it.
 */
export function isViewFile(pathname: string): boolean {
  return pathname.startsWith('/assets/') && pathname.toLowerCase().endsWith('.htm');
}

/** How long the boot script waits for a page's file before the script renders the page. */
export const viewFileWaitMs = 3000;

/**
 * The skip link's target. Followed before the script has started (on the
 * pre-rendered home view), it leaves '#main' in the address bar; that is a
 * place on the home page, not a page name.
 */
const skipLinkTarget = mainElementId;

/**
 * The page name a URL fragment asks for: '', '#' and '#main' mean home;
 * anything else is taken as written (decoded where it can be).
 */
export function pageNameFromHash(hash: string): string {
  const raw = hash.replace(/^#/, '');
  let name: string;
  try {
    name = decodeURIComponent(raw).trim();
  } catch {
    // A stray '%' is no encoding: the name is what was typed.
    name = raw.trim();
  }
  return name === '' || name === skipLinkTarget ? 'home' : name;
}

/**
 * The view a page name belongs to, for finding its code: a name may carry an
 * argument after '=' (the answer link's `answer=<token>`, supabase/functions/_shared/core/answer-link.ts),
 * which no view's code depends on.
 */
export function viewOfPageName(pageName: string): string {
  return pageName.split('=', 1)[0]!;
}
