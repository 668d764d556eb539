import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bootManifestIn, type BootManifest } from '../../src/boot/protocol.ts';
import {
  withoutDeferredStart,
  withoutFallbackFaces,
  withoutFallbackFacesInlined,
  withoutFetchedViews,
  withoutLocalFaces,
  withPolicyHashes,
} from './first-paint-variants.ts';

const fallbackFace =
  '@font-face{font-family:Inter Fallback;src:local(Arial),local(Liberation Sans);size-adjust:106.6%}';
const styles = `${fallbackFace}:root{--font-sans:'Inter','Inter Fallback',sans-serif}`;

const boot: BootManifest = {
  mainScript: '/assets/index-a1.js',
  afterFirstPaint: {
    stylesheets: ['/assets/web-fonts-b2.css'],
    fonts: ['/assets/inter-c3.woff2'],
    manifest: '/manifest.webmanifest',
  },
  inPageViews: ['contact'],
  viewFiles: { benefits: '/assets/view-benefits-d4.html' },
  viewChunks: { benefits: ['/assets/benefits-view-e5.js'] },
};

/** A built page in the shape scripts/prerender.ts writes. */
const page = `<!doctype html>
<html>
  <head>
    <meta charset="UTF-8" />
    <meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'sha256-old='; style-src 'self' 'sha256-old='; img-src 'self' data:" />
    <script type="application/json" id="boot">${JSON.stringify(boot)}</script>
    <script>start()</script>
    <style>${styles}</style>
  </head>
  <body><div id="root"></div></body>
</html>`;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64');

describe('the variants of the built page', () => {
  it('read the boot manifest', () => {
    expect(bootManifestIn(page)).toEqual(boot);
  });

  it('without the deferred start: the main script in the head, before the style sheet', () => {
    const variant = withoutDeferredStart(page);
    expect(variant).toContain(
      '<script type="module" crossorigin src="/assets/index-a1.js"></script>\n    <style>',
    );
    expect(variant.replace(/\n\s*<script type="module"[^>]*><\/script>/, '')).toBe(page);
  });

  it('without the fetched view files: no view file to fetch, and nothing else changed', () => {
    const variant = withoutFetchedViews(page);
    expect(bootManifestIn(variant)).toEqual({ ...boot, viewFiles: {} });
    expect(variant.replace(/id="boot">[^<]*</, '')).toBe(page.replace(/id="boot">[^<]*</, ''));
  });

  it('without the fallback faces: the web fonts linked in the head', () => {
    const variant = withoutFallbackFaces(page);
    expect(variant).not.toContain('local(');
    expect(variant).toContain(
      '<link rel="stylesheet" crossorigin href="/assets/web-fonts-b2.css">\n    <style>:root{',
    );
  });

  it('without the fallback faces, second form: the web fonts’ faces inlined', () => {
    const webFonts =
      '@font-face{font-family:Inter;font-display:swap;src:url(/assets/inter-c3.woff2)}';
    const variant = withoutFallbackFacesInlined(page, webFonts);
    expect(variant).toContain(
      `<style>:root{--font-sans:'Inter','Inter Fallback',sans-serif}${webFonts}</style>`,
    );
    expect(variant).not.toContain('<link rel="stylesheet"');
  });

  it('keep every @font-face that takes a web font', () => {
    const webFace = '@font-face{font-family:Inter;src:url(/inter.woff2)format("woff2")}';
    expect(withoutLocalFaces(`${fallbackFace}${webFace}body{margin:0}`)).toBe(
      `${webFace}body{margin:0}`,
    );
  });

  it('refuse a page they cannot read', () => {
    expect(() => bootManifestIn('<html></html>')).toThrow(/no boot manifest/);
  });
});

describe('withPolicyHashes', () => {
  it('names the hashes of the inline script and style as they are now, and keeps the rest', () => {
    const variant = withoutFallbackFaces(page);
    const style = /<style>([\s\S]*?)<\/style>/.exec(variant)?.[1] ?? '';
    const policy = /content="([^"]*)"/.exec(withPolicyHashes(variant))?.[1];
    // The boot manifest is data, not script: it has no hash.
    expect(policy).toBe(
      `default-src 'self'; script-src 'self' 'sha256-${sha256('start()')}'; ` +
        `style-src 'self' 'sha256-${sha256(style)}'; img-src 'self' data:`,
    );
  });

  it('changes nothing on a page whose hashes are right', () => {
    const once = withPolicyHashes(page);
    expect(withPolicyHashes(once)).toBe(once);
  });
});
