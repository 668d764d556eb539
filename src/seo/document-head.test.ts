import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { site } from '../content/site.ts';
import { documentHead, svgDataUrl } from './document-head.ts';

const favicon = readFileSync(new URL('../../public/favicon.svg', import.meta.url), 'utf8');

describe('svgDataUrl', () => {
  it('escapes what a URL may not hold and decodes back to the drawing', () => {
    const url = svgDataUrl(favicon);
    const data = url.slice('data:image/svg+xml,'.length);
    expect(url.startsWith('data:image/svg+xml,')).toBe(true);
    expect(data).not.toMatch(/[#<>"%](?![0-9A-F]{2})/);
    expect(decodeURIComponent(data)).toBe(favicon.replace(/\s+/g, ' ').trim());
  });
});

describe('documentHead', () => {
  it('writes the icon into the page and, with no script, links what the script adds later', () => {
    const head = documentHead(site, {
      faviconSvg: favicon,
      afterFirstPaint: { manifest: '/app.webmanifest' },
    });
    expect(head).toContain('<link rel="icon" href="data:image/svg+xml,');
    expect(head).not.toContain('href="/favicon.svg"');
    expect(head).toContain('<noscript><link rel="manifest" href="/app.webmanifest" /></noscript>');
    expect(head).not.toMatch(/<link rel="manifest"[^>]*>(?!<\/noscript>)/);
  });
});
