import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  readBoot,
  staticImports,
  withoutDeferredStart,
  withoutFallbackFaces,
  withoutFallbackFacesInlined,
  withoutFetchedViews,
  withoutLocalFaces,
  withoutStrippedPreloads,
  withPolicyHashes,
} from './first-paint-variants.ts';

const fallbackFace =
  '@font-face{font-family:Inter Fallback;src:local(Arial),local(Liberation Sans);size-adjust:106.6%}';
const styles = `${fallbackFace}:root{--font-sans:'Inter','Inter Fallback',sans-serif}`;

/** A built page as scripts/prerender.mjs writes it today: literals in the inline script. */
const literalPage = `<!doctype html>
<html>
  <head>
    <meta charset="UTF-8" />
    <meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'sha256-old='; style-src 'self' 'sha256-old='; img-src 'self' data:" />
    <script>
      (function () {
        var main = "/assets/index-a1.js";
        var later = {"stylesheets":["/assets/web-fonts-b2.css"],"fonts":["/assets/inter-c3.woff2"],"manifest":"/manifest.webmanifest"};
        var fragment = {"benefits":"/assets/view-benefits-d4.html"}[view];
      })();
    </script>
    <style>${styles}</style>
  </head>
  <body><div id="root"></div></body>
</html>`;

const boot = {
  main: '/assets/index-a1.js',
  afterFirstPaint: {
    stylesheets: ['/assets/web-fonts-b2.css'],
    fonts: ['/assets/inter-c3.woff2'],
    manifest: '/manifest.webmanifest',
  },
  inPageViews: ['contact'],
  viewFragments: { benefits: '/assets/view-benefits-d4.html' },
  viewFiles: { benefits: ['/assets/benefits-view-e5.js'] },
};

/** The same page with the inline script reading a JSON manifest instead. */
const manifestPage = literalPage.replace(
  /<script>[\s\S]*?<\/script>/,
  `<script type="application/json" id="boot">${JSON.stringify(boot)}</script>\n    <script>start()</script>`,
);

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64');

describe.each([
  ['literals in the inline script', literalPage],
  ['a JSON boot manifest', manifestPage],
])('a page with %s', (_, page) => {
  it('tells what the inline script starts from', () => {
    expect(readBoot(page)).toEqual({
      main: boot.main,
      afterFirstPaint: boot.afterFirstPaint,
      viewFragments: boot.viewFragments,
    });
  });

  it('A: puts the main script in the head, before the style sheet', () => {
    const variant = withoutDeferredStart(page);
    expect(variant).toContain(
      '<script type="module" crossorigin src="/assets/index-a1.js"></script>\n    <style>',
    );
    expect(variant.replace(/\n\s*<script type="module"[^>]*><\/script>/, '')).toBe(page);
  });

  it('B: leaves the inline script no view file to fetch, and changes nothing else', () => {
    const variant = withoutFetchedViews(page);
    expect(readBoot(variant).viewFragments).toEqual({});
    expect(readBoot(variant).main).toBe(boot.main);
    expect(variant.length).toBeLessThan(page.length);
    if (page === manifestPage) {
      const json = /id="boot">([^<]*)</.exec(variant)?.[1] ?? '';
      expect(JSON.parse(json)).toEqual({ ...boot, viewFragments: {} });
    }
  });

  it('D: drops the fallback faces and links the web fonts in the head', () => {
    const variant = withoutFallbackFaces(page);
    expect(variant).not.toContain('local(');
    expect(variant).toContain(
      '<link rel="stylesheet" crossorigin href="/assets/web-fonts-b2.css">\n    <style>:root{',
    );
  });

  it('D, second form: drops the fallback faces and inlines the web fonts’ faces', () => {
    const webFonts =
      '@font-face{font-family:Inter;font-display:swap;src:url(/assets/inter-c3.woff2)}';
    const variant = withoutFallbackFacesInlined(page, webFonts);
    expect(variant).toContain(
      `<style>:root{--font-sans:'Inter','Inter Fallback',sans-serif}${webFonts}</style>`,
    );
    expect(variant).not.toContain('<link rel="stylesheet"');
  });
});

describe('the other variants', () => {
  it('C: adds a modulepreload link per import, before the style sheet', () => {
    const variant = withoutStrippedPreloads(literalPage, ['/assets/a.js', '/assets/b.js']);
    expect(variant).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/a.js">\n    <link rel="modulepreload" crossorigin href="/assets/b.js">\n    <style>',
    );
    expect(withoutStrippedPreloads(literalPage, [])).toBe(literalPage);
  });

  it('keeps every @font-face that takes a web font', () => {
    const webFace = '@font-face{font-family:Inter;src:url(/inter.woff2)format("woff2")}';
    expect(withoutLocalFaces(`${fallbackFace}${webFace}body{margin:0}`)).toBe(
      `${webFace}body{margin:0}`,
    );
  });

  it('refuses a page it cannot read', () => {
    expect(() => readBoot('<html></html>')).toThrow(/nothing that matches/);
  });
});

describe('staticImports', () => {
  it('finds static imports, resolved against the module, and not the dynamic ones', () => {
    const js =
      'import{a as e,b as t}from"./chunk-1.js";import"./side-effect.js";import*as n from"../vendor/x.js";' +
      'const r=()=>import("./lazy.js");import{c}from"react";';
    expect(staticImports(js, '/assets/index-a1.js')).toEqual([
      '/assets/chunk-1.js',
      '/assets/side-effect.js',
      '/vendor/x.js',
    ]);
  });

  it('finds none in a module that imports nothing', () => {
    expect(staticImports('const e=1;export{e as t};', '/assets/index.js')).toEqual([]);
  });
});

describe('withPolicyHashes', () => {
  it('names the hashes of the inline script and style as they are now, and keeps the rest', () => {
    const page = withoutFallbackFaces(literalPage);
    const script = /<script>([\s\S]*?)<\/script>/.exec(page)?.[1] ?? '';
    const style = /<style>([\s\S]*?)<\/style>/.exec(page)?.[1] ?? '';
    const policy = /content="([^"]*)"/.exec(withPolicyHashes(page))?.[1];
    expect(policy).toBe(
      `default-src 'self'; script-src 'self' 'sha256-${sha256(script)}'; ` +
        `style-src 'self' 'sha256-${sha256(style)}'; img-src 'self' data:`,
    );
  });

  it('leaves the data of a JSON manifest out of the script hashes', () => {
    const policy = /content="([^"]*)"/.exec(withPolicyHashes(manifestPage))?.[1] ?? '';
    expect(policy).toContain(`script-src 'self' 'sha256-${sha256('start()')}';`);
  });

  it('changes nothing on a page whose hashes are right', () => {
    const once = withPolicyHashes(literalPage);
    expect(withPolicyHashes(once)).toBe(once);
  });
});
