/**
 * The boot scripts on a DOM of their own (happy-dom), with the page's view
 * files served over real HTTP: the view already in the page, the view's file
 * fetched, and the file missing or late (the script renders the view); and
 * what the page links only once the visitor acts (src/lib/page-extras.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Window } from 'happy-dom';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  bootManifestId,
  inPageTemplateId,
  interactiveAttribute,
  menuAskedAttribute,
  menuButtonClass,
  rootElementId,
  sendAskedAttribute,
  sideMenuClass,
  viewFileWaitMs,
  viewPendingAttribute,
  type BootManifest,
} from './protocol.ts';
import { linkPageExtras } from '../lib/page-extras.ts';
import { showInPageView } from './show-in-page-view.ts';
import { startPage, type BootWindow } from './start-page.ts';

const manifest: BootManifest = {
  mainScript: '/assets/index-abc.js',
  afterFirstPaint: { manifest: '/manifest.webmanifest' },
  inPageViews: ['contact'],
  viewFiles: {
    benefits: '/assets/view-benefits-abc.htm',
    location: '/assets/view-location-abc.htm',
    testimonials: '/assets/view-testimonials-abc.htm',
  },
  viewChunks: {
    benefits: ['/assets/benefits-view-abc.js', '/assets/page-header-abc.js'],
    contact: ['/assets/contact-view-abc.js'],
    answer: ['/assets/answer-view-abc.js'],
  },
};

const homeMarkup = '<main id="main" data-view="home"><h1>Home</h1></main>';
const benefitsMarkup = '<main id="main" data-view="benefits"><h1>Benefits</h1></main>';
const contactMarkup = '<main id="main" data-view="contact"><h1>Book</h1><form></form></main>';

// The view files: benefits at once, location never (404), testimonials only
// once the test sends it.
let server: Server;
let origin: string;
let sendTestimonials: (() => void) | undefined;
beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === manifest.viewFiles.benefits) {
      response.writeHead(200, { 'Content-Type': 'text/html' }).end(benefitsMarkup);
    } else if (request.url === manifest.viewFiles.testimonials) {
      sendTestimonials = () => response.writeHead(200).end('<h1>Late</h1>');
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Paint reports as the test gives them, in place of the browser's. */
class PaintObserver {
  static observers: PaintObserver[] = [];
  constructor(
    private readonly callback: (
      list: { getEntries(): { name: string; startTime: number }[] },
      observer: PaintObserver,
    ) => void,
  ) {}
  observe() {
    PaintObserver.observers.push(this);
  }
  disconnect() {
    PaintObserver.observers = PaintObserver.observers.filter((o) => o !== this);
  }
  static report(name: string, startTime: number) {
    for (const observer of [...PaintObserver.observers])
      observer.callback({ getEntries: () => [{ name, startTime }] }, observer);
  }
}

// The boot script's timers are the test's to advance; the view files come over
// real HTTP all the same.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});

const windows: Window[] = [];
afterEach(async () => {
  vi.useRealTimers();
  PaintObserver.observers = [];
  await Promise.all(windows.splice(0).map((window) => window.happyDOM.close()));
});

interface PageOptions {
  hash?: string;
  withManifest?: boolean;
  paintTiming?: boolean;
  /** The main script fails to load, as when the connection drops. */
  mainScriptFails?: boolean;
}

/**
 * The built page's shape: the manifest, pre-rendered home in #root, the
 * booking page's template; its boot scripts run.
 */
function openPage({
  hash = '',
  withManifest = true,
  paintTiming = false,
  mainScriptFails = false,
}: PageOptions = {}) {
  const window = new Window({
    url: `${origin}/${hash}`,
    settings: {
      disableJavaScriptFileLoading: true,
      handleDisabledFileLoadingAsSuccess: !mainScriptFails,
    },
  });
  windows.push(window);
  const manifestScript = withManifest
    ? `<script type="application/json" id="${bootManifestId}">${JSON.stringify(manifest)}</script>`
    : '';
  window.document.write(
    `<!doctype html><html><head>${manifestScript}</head><body>` +
      `<div id="${rootElementId}">${homeMarkup}</div>` +
      `<template id="${inPageTemplateId('contact')}">${contactMarkup}</template></body></html>`,
  );
  const document = window.document as unknown as Document;
  const bootWindow = {
    document,
    location: window.location,
    fetch: window.fetch.bind(window),
    setTimeout: (handler: () => void, ms: number) => setTimeout(handler, ms),
    addEventListener: window.addEventListener.bind(window),
    performance: window.performance,
    PerformanceObserver: paintTiming ? PaintObserver : undefined,
    scrollTo: () => {},
  } as unknown as BootWindow;
  const html = document.documentElement;
  let mainScriptFailures = 0;
  document.addEventListener(
    'error',
    (event) => {
      const failed = event.target as Element;
      if (failed.getAttribute?.('src') === manifest.mainScript) mainScriptFailures += 1;
    },
    true,
  );
  showInPageView(bootWindow);
  startPage(bootWindow);
  return {
    document,
    /** Once what the page fetched has come, and been dealt with. */
    settled: () => window.happyDOM.waitUntilComplete(),
    mainHeading: () => document.querySelector('main h1')?.textContent,
    isPending: () => html.hasAttribute(viewPendingAttribute),
    /** How many times the main script was asked for and did not come. */
    mainScriptFailures: () => mainScriptFailures,
    mainScriptStarted: () =>
      [...document.querySelectorAll('script[type="module"]')].some(
        (script) => script.getAttribute('src') === manifest.mainScript,
      ),
    links: (rel: string) =>
      [...document.querySelectorAll(`link[rel="${rel}"]`)].map((link) => link.getAttribute('href')),
  };
}

describe('the view already in the page', () => {
  it('shows home as pre-rendered, and starts the main script after the first paint', async () => {
    const page = openPage({ paintTiming: true });
    expect(page.mainHeading()).toBe('Home');
    expect(page.isPending()).toBe(false);
    PaintObserver.report('first-paint', 5);
    await vi.advanceTimersByTimeAsync(0);
    expect(page.mainScriptStarted()).toBe(false);
    expect(page.links('modulepreload')).toEqual([]);

    PaintObserver.report('first-contentful-paint', 12);
    await vi.waitFor(() => expect(page.mainScriptStarted()).toBe(true));
    // A first visit keeps the fallback fonts: nothing replaces them on screen.
    expect(page.links('stylesheet')).toEqual([]);
    expect(page.links('preload')).toEqual([]);
    // The manifest and the fonts wait for the visitor (src/lib/page-extras.ts).
    expect(page.links('manifest')).toEqual([]);
    // Home's code is the main script's own.
    expect(page.links('modulepreload')).toEqual([]);
  });

  it('asks for a main script that did not come again at the next touch, not when the later timer runs out', async () => {
    const page = openPage({ paintTiming: true, mainScriptFails: true });
    PaintObserver.report('first-contentful-paint', 12);
    await vi.waitFor(() => expect(page.mainScriptFailures()).toBe(1));
    // The page's load, then the timer that starts it in a browser reporting no paints.
    const { Event: EventOfPage } = page.document.defaultView as unknown as typeof globalThis;
    page.document.defaultView!.dispatchEvent(new EventOfPage('load'));
    await vi.runAllTimersAsync();
    await page.settled();
    expect(page.mainScriptFailures()).toBe(1);
    page.document.dispatchEvent(new EventOfPage('pointerdown'));
    await vi.waitFor(() => expect(page.mainScriptFailures()).toBe(2));
  });

  it('starts it after a while in a browser that reports no paints', async () => {
    const page = openPage();
    await vi.advanceTimersByTimeAsync(999);
    expect(page.mainScriptStarted()).toBe(false);
    await vi.runAllTimersAsync();
    expect(page.mainScriptStarted()).toBe(true);
  });

  it('shows the booking page from its template, and fetches only the first script after the paint', async () => {
    const page = openPage({ hash: '#contact', paintTiming: true });
    expect(page.mainHeading()).toBe('Book');
    expect(page.isPending()).toBe(false);
    PaintObserver.report('first-contentful-paint', 12);
    await vi.waitFor(() => expect(page.mainScriptStarted()).toBe(true));
    // The app and the view's code come with the visitor's first interaction (src/main.tsx).
    expect(page.links('modulepreload')).toEqual([]);
  });

  it('holds back a form sent before the script has run, noted for it, and lets it through after', () => {
    const page = openPage({ hash: '#contact' });
    const form = page.document.querySelector('form')!;
    const EventOfPage = (page.document.defaultView as unknown as typeof globalThis).Event;
    const send = () => {
      const event = new EventOfPage('submit', { cancelable: true });
      form.dispatchEvent(event);
      return event.defaultPrevented ? 'held back' : 'sent';
    };
    const html = page.document.documentElement;
    expect(html.hasAttribute(sendAskedAttribute)).toBe(false);
    expect(send()).toBe('held back');
    expect(html.hasAttribute(sendAskedAttribute)).toBe(true);
    html.removeAttribute(sendAskedAttribute);
    html.setAttribute(interactiveAttribute, '');
    expect(send()).toBe('sent');
    expect(html.hasAttribute(sendAskedAttribute)).toBe(false);
  });
});

describe('a tap before the first script', () => {
  it('opens the menu on a tap on its button, and notes it for the first script, until it has come', () => {
    const page = openPage();
    const html = page.document.documentElement;
    const button = page.document.createElement('button');
    button.className = menuButtonClass;
    const menu = page.document.createElement('dialog');
    menu.className = sideMenuClass;
    page.document.body.append(button, menu);
    html.setAttribute(interactiveAttribute, '');
    button.click();
    expect(menu.open).toBe(false);
    html.removeAttribute(interactiveAttribute);
    button.click();
    expect(menu.open).toBe(true);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(html.hasAttribute(menuAskedAttribute)).toBe(true);
  });

  it('shows the booking page from its template when a link to it is followed', async () => {
    const page = openPage();
    expect(page.mainHeading()).toBe('Home');
    page.document.defaultView!.location.hash = '#contact';
    await vi.waitFor(() => expect(page.mainHeading()).toBe('Book'));
  });
});

describe("the view's file, fetched", () => {
  it('hides home, puts the fetched view in its place, then starts the script after its paint, its chunks left for later', async () => {
    const page = openPage({ hash: '#benefits' });
    expect(page.isPending()).toBe(true);
    expect(page.mainScriptStarted()).toBe(false);

    await vi.waitFor(() => expect(page.mainHeading()).toBe('Benefits'));
    expect(page.isPending()).toBe(false);
    expect(page.mainScriptStarted()).toBe(false);
    await vi.runAllTimersAsync();
    expect(page.mainScriptStarted()).toBe(true);
    // The view's code runs only once the visitor acts (src/main.tsx).
    expect(page.links('modulepreload')).toEqual([]);
  });
});

describe('the file missing or late: the script renders the view', () => {
  it("hides home and fetches the script with the answer view's code for an answer link", async () => {
    const page = openPage({
      hash: `#answer=${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}.1.ab`,
    });
    expect(page.isPending()).toBe(true);
    await vi.waitFor(() => expect(page.mainScriptStarted()).toBe(true));
    expect(page.links('modulepreload')).toEqual(
      expect.arrayContaining([...manifest.viewChunks.answer!]),
    );
  });

  it('starts the script at once, with the view hidden, when the file is missing', async () => {
    const page = openPage({ hash: '#location' });
    await vi.waitFor(() => expect(page.mainScriptStarted()).toBe(true));
    expect(page.isPending()).toBe(true);
    expect(page.mainHeading()).toBe('Home');
    expect(page.links('modulepreload')).toContain(manifest.mainScript);
  });

  it('gives up on a file that has not come after the wait, and ignores it when it comes', async () => {
    const page = openPage({ hash: '#testimonials' });
    await vi.advanceTimersByTimeAsync(viewFileWaitMs - 1);
    expect(page.mainScriptStarted()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(page.mainScriptStarted()).toBe(true);
    expect(page.isPending()).toBe(true);

    await vi.waitFor(() => expect(sendTestimonials).toBeDefined());
    sendTestimonials!();
    await page.settled();
    expect(page.mainHeading()).toBe('Home');
    expect(page.isPending()).toBe(true);
  });

  it('starts the script at once for a page that is not pre-rendered', () => {
    const page = openPage({ hash: '#elsewhere' });
    expect(page.isPending()).toBe(true);
    expect(page.mainScriptStarted()).toBe(true);
    expect(page.links('modulepreload')).toEqual([manifest.mainScript]);
  });
});

describe('without a manifest (the development server)', () => {
  it('does nothing', async () => {
    const page = openPage({ hash: '#benefits', withManifest: false });
    await page.settled();
    expect(page.isPending()).toBe(false);
    expect(page.mainScriptStarted()).toBe(false);
    expect(page.links('modulepreload')).toEqual([]);
  });
});

describe('what waits for the visitor', () => {
  it('links the web manifest, once, and no style sheet', () => {
    const page = openPage();
    linkPageExtras(page.document);
    linkPageExtras(page.document);
    expect(page.links('manifest')).toEqual([manifest.afterFirstPaint.manifest]);
    expect(page.links('stylesheet')).toEqual([]);
  });
});
