/**
 * The page's first script, started by the boot script after the first paint.
 * It is small and holds no React: it fills in what the pre-rendered page
 * cannot know (whether the clinic is open now, the next Sunnah days), sets up the reveal on scroll
 * and the top bar, and leaves the React app (src/start-app.tsx) to come when
 * it is needed:
 *
 * - at once on a view that needs it (one that is not pre-rendered, or not the
 *   one on screen);
 * - otherwise on the visitor's first interaction (a touch, a click, a key,
 *   focus, a change of address). The tap that asks for it is not lost: the
 *   menu opens and 'Book Your Session' shows the booking page at once, here;
 *   the booking form takes what is typed, and a send waits for the app
 *   (src/booking/form-before-app.ts); any other link is followed by the app
 *   once it has adopted the page.
 *
 * So a visitor who only reads costs the phone no framework at all
 * (docs/performance.md, "What runs on the main thread").
 */
import { urlFor, viewFor, type ViewName } from './app/page-name.ts';
import { pageNames } from './content/page-names.ts';
import {
  closeMenuClass,
  interactiveAttribute,
  mainElementId,
  menuAskedAttribute,
  menuButtonClass,
  navBarClass,
  pageNameFromHash,
  scrolledAttribute,
  sideMenuClass,
  viewAttribute,
  viewOfPageName,
} from './boot/protocol.ts';
import { askAgainLater, onNextVisitorAct } from './boot/ask-again.ts';
import { linkInHead } from './boot/link-in-head.ts';
import { readBootManifest } from './boot/read-boot-manifest.ts';
import { focusPageHeading, putInPageView, takeViewTitle } from './boot/show-in-page-view.ts';
import { lockBodyScroll } from './lib/body-scroll-lock.ts';
import { afterFirstViewShown } from './lib/first-view.ts';
import { scrollToTop } from './lib/motion.ts';
import { holdSendsForApp } from './booking/form-before-app.ts';
import { linkPageExtras } from './lib/page-extras.ts';
import { fillInOpeningStatus } from './lib/opening-status-text.ts';
import { fillInSunnahDays } from './lib/sunnah-days.ts';
import { revealAllOnScroll } from './lib/reveal-on-scroll.ts';
import { keepBookingInReach } from './lib/booking-in-reach.ts';
import { isScrolledPast } from './lib/scrolled-past.ts';
import './styles/index.css';

/**
 * Views that, pre-rendered and on screen, need nothing of React until the
 * visitor acts: every page (src/entry-server.tsx pre-renders them all).
 */
const readOnArrival: ReadonlySet<ViewName> = new Set(pageNames);

/** Longer than the usual interval between the two clicks of a double click (as src/components/dialog.tsx). */
const doubleClickMs = 500;

const html = document.documentElement;
let appStarted = false;
let menuOpenedAt = 0;
let appLoading: Promise<void> | null = null;

function sideMenu(): HTMLDialogElement | null {
  return document.querySelector<HTMLDialogElement>(`dialog.${sideMenuClass}`);
}

function startApp(): Promise<void> {
  if (!appLoading) preloadViewCode();
  appLoading ??= import('./start-app.tsx').then(startLoadedApp, () => {
    // The app's code did not come: the attempt is forgotten and made again,
    // and a held send with it (a send asks for the app too).
    appLoading = null;
    askAgainLater(window, askForAppSoon);
  });
  return appLoading;
}

function startLoadedApp(app: typeof import('./start-app.tsx')): void {
  appStarted = true;
  app.startApp({ menuOpen: sideMenu()?.open ?? false });
  // Last of all, once the app answers and the browser is idle: the manifest.
  afterFirstViewShown(() => whenIdle(() => linkPageExtras(document)));
}

/**
 * The code of the view on screen, fetched beside the app's: the app adopts the
 * view only once it has it, and would otherwise ask for it only once it runs.
 */
function preloadViewCode(): void {
  const chunks =
    readBootManifest(document)?.viewChunks[viewOfPageName(pageNameFromHash(window.location.hash))];
  for (const file of chunks ?? []) linkInHead(document, 'modulepreload', file);
}

/** Longer than a tap takes from the touch to its click. */
const tapMs = 300;

/** Starts the app once the frame that answers the visitor is painted. */
function startAppAfterAnswer(): void {
  window.requestAnimationFrame(() => window.setTimeout(startApp, 0));
}

function whenIdle(then: () => void): void {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(then);
  else window.setTimeout(then, 0);
}

fillInOpeningStatus(document);
fillInSunnahDays(document);
revealAllOnScroll(document);
keepBookingInReach(document);
takeViewTitle(document);

const view = viewFor(pageNameFromHash(window.location.hash));
const shownView = document.getElementById(mainElementId)?.getAttribute(viewAttribute);
if (shownView === view && readOnArrival.has(view)) {
  holdSendsForApp(document, () => void startApp());
  waitForTheVisitor();
  takeOverMenuOpenedEarly();
} else {
  void startApp();
}

/** The menu the boot script opened on a tap that came before this script: kept in step from here. */
function takeOverMenuOpenedEarly(): void {
  if (!html.hasAttribute(menuAskedAttribute)) return;
  html.removeAttribute(menuAskedAttribute);
  const button = document.querySelector<HTMLElement>(`.${menuButtonClass}`);
  const dialog = sideMenu();
  if (!button || !dialog) return;
  if (dialog.open) keepMenuInStep(dialog, button);
  else button.setAttribute('aria-expanded', 'false');
}

/**
 * Asks for the app a little after the visitor acts. Not at once: a touch is
 * most often a tap, whose click this script answers first (below); the app's
 * code, compiled and run in long tasks, must not stand between the two.
 */
function askForAppSoon(): void {
  window.setTimeout(startAppAfterAnswer, tapMs);
}

function waitForTheVisitor(): void {
  onNextVisitorAct(document, askForAppSoon);
  // A change of address is the app's to follow, at once.
  window.addEventListener('hashchange', () => void startApp(), { once: true });
  window.addEventListener('popstate', () => void startApp(), { once: true });

  const bar = document.querySelector(`.${navBarClass}`);
  const markScrolled = () => {
    if (appStarted) window.removeEventListener('scroll', markScrolled);
    else bar?.setAttribute(scrolledAttribute, String(isScrolledPast()));
  };
  // On scroll only: reading the scroll position now would force a layout.
  window.addEventListener('scroll', markScrolled, { passive: true });

  document.addEventListener('click', answerBeforeTheApp);
  // The page answers to clicks from now on (the browser tests wait for it).
  html.setAttribute(interactiveAttribute, '');
}

/** A click before the app has adopted the page: answered here, or handed to the app. */
function answerBeforeTheApp(event: MouseEvent): void {
  if (appStarted || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const target = event.target as Element;
  const dialog = sideMenu();

  const menuButton = target.closest<HTMLElement>(`.${menuButtonClass}`);
  if (menuButton && dialog) {
    openMenu(dialog, menuButton);
    return;
  }
  if (dialog?.open) {
    const onBackdrop = target === dialog && performance.now() - menuOpenedAt > doubleClickMs;
    if (onBackdrop || target.closest(`.${closeMenuClass}`)) {
      dialog.close();
      return;
    }
  }

  const link = target.closest<HTMLAnchorElement>('a[href^="#"]');
  const href = link?.getAttribute('href');
  if (!link || !href) return;
  event.preventDefault();
  if (href === `#${mainElementId}`) {
    // The skip link: the fragment names pages here, so focus moves without touching the address.
    document.querySelector<HTMLElement>(`#${mainElementId} h1`)?.focus();
    return;
  }
  const pageName = pageNameFromHash(href);
  if (!dialog?.open && showInPageView(pageName)) return;
  // Any other link is the app's to follow, as it would have: it is on its way.
  void startApp();
  afterFirstViewShown(() => link.click());
}

function openMenu(dialog: HTMLDialogElement, button: HTMLElement): void {
  if (dialog.open) return;
  dialog.showModal();
  button.setAttribute('aria-expanded', 'true');
  keepMenuInStep(dialog, button);
  startAppAfterAnswer();
}

/** The open menu's page lock and button state, until it closes. */
function keepMenuInStep(dialog: HTMLDialogElement, button: HTMLElement): void {
  menuOpenedAt = performance.now();
  const unlock = lockBodyScroll();
  dialog.addEventListener(
    'close',
    () => {
      unlock();
      if (!appStarted) button.setAttribute('aria-expanded', 'false');
    },
    { once: true },
  );
}

/**
 * Switches to a page pre-rendered into the HTML (the booking page), as the
 * app would: the address, the scroll to the top, the focus on its heading.
 * The app then adopts it. False where the page is not in the HTML.
 */
function showInPageView(pageName: string): boolean {
  const shown = document.getElementById(mainElementId)?.getAttribute(viewAttribute);
  if (shown === viewFor(pageName)) {
    // Already on screen (the footer's link to the privacy notice, on the booking page):
    // to its top, as the app does, without putting a new copy, empty, in its place.
    scrollToTop();
    focusPageHeading(document);
    return true;
  }
  if (!putInPageView(document, pageName)) return false;
  takeViewTitle(document);
  window.history.pushState(null, '', urlFor(pageName, window.location.pathname));
  scrollToTop();
  focusPageHeading(document);
  holdSendsForApp(document, () => void startApp());
  startAppAfterAnswer();
  return true;
}
