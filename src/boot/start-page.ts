/**
 * Runs in the head, before the first paint: starts the page's script, and
 * shows a page other than home without it.
 *
 * Home is pre-rendered in #root. So is the booking page, in a template after
 * #root that `showInPageView` puts in its place before the first paint. The
 * other pages are pre-rendered files, fetched from here at once and put in
 * place as soon as they arrive (until then the page is hidden, so home never
 * flashes). The script adopts what is on screen.
 *
 * Nothing else is fetched before that first paint but the web fonts the head
 * preloads: the page's first script follows it, so on a slow connection it
 * does not stand in its way (the web manifest comes later still,
 * src/lib/page-extras.ts).
 * A page that is not pre-rendered, or whose file cannot be fetched in time, is
 * rendered by the script, fetched at once with the page's own code.
 *
 * Each of these was measured against the page without it (docs/performance.md).
 */
import {
  interactiveAttribute,
  menuAskedAttribute,
  menuButtonClass,
  pageNameFromHash,
  sideMenuClass,
  rootElementId,
  sendAskedAttribute,
  viewFileWaitMs,
  viewPendingAttribute,
  viewOfPageName,
  type BootManifest,
} from './protocol.ts';
import { askAgainLater } from './ask-again.ts';
import { linkInHead } from './link-in-head.ts';
import { noticeIfSendStalls } from './send-stalled.ts';
import { focusPageHeading, showInPageView } from './show-in-page-view.ts';
import { readBootManifest } from './read-boot-manifest.ts';

/** The parts of a browser window this script uses, so a test can run it on a DOM of its own. */
export type BootWindow = Pick<
  Window,
  'document' | 'location' | 'fetch' | 'setTimeout' | 'addEventListener' | 'performance' | 'scrollTo'
> & { PerformanceObserver?: typeof PerformanceObserver };

export function startPage(window: BootWindow): void {
  const { document } = window;
  const found = readBootManifest(document);
  if (!found) return;
  const manifest: BootManifest = found;
  const root = document.documentElement;
  const pageName = pageNameFromHash(window.location.hash);
  const viewFile = manifest.viewFiles[pageName];
  const viewChunks = manifest.viewChunks[viewOfPageName(pageName)] ?? [];

  let started = false;
  function start(): void {
    if (started) return;
    started = true;
    // A pre-rendered page waits for the visitor before the app and the view's
    // own code are fetched (src/main.tsx): only the first script, now.
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = 'anonymous';
    script.src = manifest.mainScript;
    // It did not come: a new script asks for it again, later.
    script.addEventListener('error', () => {
      script.remove();
      started = false;
      askAgainLater(window, start);
    });
    document.head.appendChild(script);
  }

  // Starts once the browser reports a paint at or after `since` (the first
  // contentful paint, or the largest one of a page put in place), or after a
  // while where it reports none: whichever comes first, once. A script that
  // then did not come is asked for again at the visitor's next act, not when
  // the later of the two comes.
  function afterPaint(since: number): void {
    let gone = false;
    const go = () => {
      if (gone) return;
      gone = true;
      window.setTimeout(start, 0);
    };
    try {
      new window.PerformanceObserver!((list, observer) => {
        const painted = list
          .getEntries()
          .some((entry) => entry.name !== 'first-paint' && entry.startTime >= since);
        if (!painted) return;
        observer.disconnect();
        go();
      }).observe({ type: since ? 'largest-contentful-paint' : 'paint', buffered: true });
    } catch {
      // No paint timing in this browser: the timers below start it.
    }
    if (since) window.setTimeout(go, 500);
    else if (document.readyState === 'complete') window.setTimeout(go, 1000);
    else window.addEventListener('load', () => window.setTimeout(go, 1000));
  }

  function whenParsed(then: () => void): void {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', then);
    else then();
  }

  // Only the script sends a form: one sent before it has run must not be
  // sent by the browser itself (it would put what was typed in the URL). It is
  // noted for the script, which has it sent (src/booking/form-before-app.ts).
  document.addEventListener(
    'submit',
    (event) => {
      if (root.hasAttribute(interactiveAttribute)) return;
      event.preventDefault();
      root.setAttribute(sendAskedAttribute, '');
      noticeIfSendStalls(document);
    },
    true,
  );

  // A tap before the page's first script has come is not lost: one on the
  // menu button opens the menu (noted for src/main.tsx, which takes it over),
  // and a link to the booking page, followed by the browser, shows it from
  // its template.
  document.addEventListener(
    'click',
    (event) => {
      if (root.hasAttribute(interactiveAttribute)) return;
      const button = (event.target as Element).closest?.(`.${menuButtonClass}`);
      const menu = document.querySelector<HTMLDialogElement>(`dialog.${sideMenuClass}`);
      if (!button || !menu || menu.open) return;
      menu.showModal();
      button.setAttribute('aria-expanded', 'true');
      root.setAttribute(menuAskedAttribute, '');
    },
    true,
  );
  window.addEventListener('hashchange', () => {
    if (root.hasAttribute(interactiveAttribute)) return;
    if (showInPageView(window)) {
      window.scrollTo(0, 0);
      focusPageHeading(document);
    }
  });

  // The page is rendered by the script: its code is fetched at once.
  function renderedByScript(): void {
    root.setAttribute(viewPendingAttribute, '');
    for (const file of [manifest.mainScript, ...viewChunks]) {
      linkInHead(document, 'modulepreload', file, { fetchPriority: 'high' });
    }
    whenParsed(start);
  }

  if (pageName === 'home' || manifest.inPageViews.includes(pageName)) {
    whenParsed(() => afterPaint(0));
  } else if (viewFile && typeof window.fetch === 'function') {
    root.setAttribute(viewPendingAttribute, '');
    // Whichever comes first: the page's file, or its failure or delay.
    let settled = false;
    const settle =
      <T>(then: (value: T) => void) =>
      (value: T) => {
        if (settled) return;
        settled = true;
        then(value);
      };
    window
      .fetch(viewFile)
      .then((response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return response.text();
      })
      .then(
        settle((markup: string) =>
          whenParsed(() => {
            const template = document.createElement('template');
            template.innerHTML = markup;
            document.getElementById(rootElementId)?.replaceChildren(template.content);
            root.removeAttribute(viewPendingAttribute);
            afterPaint(window.performance.now());
          }),
        ),
        settle(renderedByScript),
      );
    window.setTimeout(settle(renderedByScript), viewFileWaitMs);
  } else {
    renderedByScript();
  }
}
