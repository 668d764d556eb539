import { Window } from 'happy-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bootManifestElement, type BootManifest } from '../boot/protocol.ts';

const manifest: BootManifest = {
  mainScript: '/assets/index-abc.js',
  afterFirstPaint: {
    stylesheets: ['/assets/web-fonts-abc.css'],
    fonts: ['/assets/inter-abc.woff2', '/assets/fraunces-abc.woff2'],
    manifest: '/manifest.webmanifest',
  },
  inPageViews: ['contact'],
  viewFiles: {},
  viewChunks: {},
};

const windows: Window[] = [];
afterEach(async () => {
  await Promise.all(windows.splice(0).map((window) => window.happyDOM.close()));
});

/** A page with the boot manifest, and this module loaded afresh (its "once" is per page). */
async function openPage() {
  const window = new Window({ url: 'http://localhost/' });
  windows.push(window);
  window.document.write(
    `<!doctype html><html><head>${bootManifestElement(JSON.stringify(manifest))}</head><body></body></html>`,
  );
  const document = window.document as unknown as Document;
  const fetched: string[] = [];
  const fetch = ((file: string) => {
    fetched.push(file);
    return Promise.resolve(new Response('x'));
  }) as typeof globalThis.fetch;
  const links = (rel: string) =>
    [...document.querySelectorAll(`link[rel="${rel}"]`)].map((link) => link.getAttribute('href'));
  vi.resetModules();
  const extras = await import('./page-extras.ts');
  return { document, fetch, fetched, links, extras };
}

describe('what waits for the visitor', () => {
  it('links the web manifest and fetches the web fonts into the cache, once, linking no font', async () => {
    const page = await openPage();
    page.extras.linkPageExtras(page.document, page.fetch);
    page.extras.linkPageExtras(page.document, page.fetch);
    expect(page.links('manifest')).toEqual([manifest.afterFirstPaint.manifest]);
    expect(page.fetched).toEqual([
      ...manifest.afterFirstPaint.stylesheets,
      ...manifest.afterFirstPaint.fonts,
    ]);
    expect(page.links('stylesheet')).toEqual([]);
  });

  it('links the web fonts at the first switch of view, once', async () => {
    const page = await openPage();
    page.extras.linkWebFonts(page.document);
    page.extras.linkWebFonts(page.document);
    expect(page.links('stylesheet')).toEqual(manifest.afterFirstPaint.stylesheets);
  });
});
