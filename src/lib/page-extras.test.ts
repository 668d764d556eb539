import { Window } from 'happy-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bootManifestElement, type BootManifest } from '../boot/protocol.ts';

const manifest: BootManifest = {
  mainScript: '/assets/index-abc.js',
  afterFirstPaint: { manifest: '/manifest.webmanifest' },
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
  const links = (rel: string) =>
    [...document.querySelectorAll(`link[rel="${rel}"]`)].map((link) => link.getAttribute('href'));
  vi.resetModules();
  const extras = await import('./page-extras.ts');
  return { document, links, extras };
}

describe('what waits for the visitor', () => {
  it('links the web manifest, once, and no style sheet', async () => {
    const page = await openPage();
    page.extras.linkPageExtras(page.document);
    page.extras.linkPageExtras(page.document);
    expect(page.links('manifest')).toEqual([manifest.afterFirstPaint.manifest]);
    expect(page.links('stylesheet')).toEqual([]);
  });
});
