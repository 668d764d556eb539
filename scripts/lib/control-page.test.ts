import { describe, expect, it } from 'vitest';
import type { BootManifest } from '../../src/boot/protocol.ts';
import { controlPage, viewSource, withoutScripts, withScriptsRefused } from './control-page.ts';

const boot: BootManifest = {
  mainScript: '/assets/index-a1.js',
  afterFirstPaint: { manifest: '/manifest.webmanifest' },
  inPageViews: ['contact'],
  viewFiles: { benefits: '/assets/view-benefits-d4.htm' },
  viewChunks: {},
};

/** A built page in the shape scripts/prerender.ts writes. */
const page = `<!doctype html>
<html>
  <head>
    <meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'sha256-a='; style-src 'self' 'sha256-b='" />
    <link rel="preload" href="/assets/fraunces.woff2" as="font" type="font/woff2" crossorigin />
    <link rel="modulepreload" href="/assets/chunk.js" />
    <script type="application/ld+json">{"@type":"HealthAndBeautyBusiness"}</script>
    <script type="application/json" id="boot">${JSON.stringify(boot)}</script>
    <script>start()</script>
    <style>main{display:block}</style>
    <noscript><link rel="manifest" href="/manifest.webmanifest" /></noscript>
  </head>
  <body>
    <div id="root"><header><div class="nav">Home</div></header><main data-view="home"><div><p>Home</p></div></main></div>
    <template id="view-contact"><main data-view="contact"><div><p>Contact</p></div></main></template>
    <script>show()</script>
  </body>
</html>`;

describe("a view's control", () => {
  it('has no script element, no module preload and runs no script', () => {
    for (const view of ['home', 'contact']) {
      const control = controlPage(page, view);
      expect(control).not.toMatch(/<script/i);
      expect(control).not.toContain('modulepreload');
      expect(control).toContain(`script-src 'none'"`);
      expect(control).not.toContain('sha256-a=');
    }
  });

  it('keeps the rest of the page as built: style sheet, font preloads, noscript, the other directives', () => {
    const control = controlPage(page, 'home');
    expect(control).toContain('<style>main{display:block}</style>');
    expect(control).toContain('<noscript><link rel="manifest"');
    expect(control).toContain('<link rel="preload" href="/assets/fraunces.woff2" as="font"');
    expect(control).toContain("style-src 'self' 'sha256-b='");
    expect(control).toContain('<template id="view-contact">');
  });

  it('shows home as pre-rendered in #root', () => {
    expect(controlPage(page, 'home')).toContain(
      '<div id="root"><header><div class="nav">Home</div></header><main data-view="home">',
    );
  });

  it("shows home's first-screen photo, held in a <noscript> for its script, as that script does", () => {
    const picture = '<picture class="hero-image"><img src="/assets/photos/room-1.webp"/></picture>';
    const withPhoto = page.replace(
      '<p>Home</p>',
      `<p>Home</p><noscript>${picture}</noscript><script>showHomePhoto()</script>`,
    );
    expect(controlPage(withPhoto, 'home')).toContain(`<p>Home</p>${picture}</div>`);
    expect(controlPage(withPhoto, 'contact')).not.toContain('room-1');
  });

  it("puts an in-page view's template content in #root, as the boot script does", () => {
    const control = controlPage(page, 'contact');
    expect(control).toContain(
      '<div id="root"><main data-view="contact"><div><p>Contact</p></div></main></div>\n    <template',
    );
    expect(control).not.toContain('<p>Home</p>');
  });

  it("puts a fetched view's file in #root", () => {
    const file = '<main data-view="benefits"><p>Benefits</p></main>';
    const control = controlPage(page, 'benefits', file);
    expect(control).toContain(`<div id="root">${file}</div>`);
    expect(() => controlPage(page, 'benefits')).toThrow(/needs \/assets\/view-benefits-d4.htm/);
  });

  it('has none for a view that only the script renders', () => {
    expect(viewSource(boot, 'coming-soon')).toBeUndefined();
    expect(() => controlPage(page, 'coming-soon')).toThrow(/not pre-rendered/);
  });
});

describe('taking scripts out', () => {
  it('removes script elements of every kind, with their line', () => {
    expect(
      withoutScripts('<p>a</p>\n    <script type="module" src="/x.js"></script>\n<p>b</p>'),
    ).toBe('<p>a</p>\n<p>b</p>');
  });

  it('refuses every script in the policy, whatever it allowed', () => {
    const html = `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src-elem 'self'; script-src 'self'">`;
    expect(withScriptsRefused(html)).toBe(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'none'">`,
    );
  });
});
