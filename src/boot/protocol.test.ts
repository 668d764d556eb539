import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isViewFile, mainElementId, viewFilePath, viewPendingAttribute } from './protocol.ts';

describe("the page's DOM contract", () => {
  it('is what the style sheet hides the page by while a view is pending', () => {
    const layout = readFileSync(new URL('../styles/layout.css', import.meta.url), 'utf8');
    expect(layout).toContain(`html[${viewPendingAttribute}] #${mainElementId} {`);
  });

  it('tells the view files from the page and the other assets', () => {
    expect(isViewFile(viewFilePath('benefits', 'K5_XddrEzu'))).toBe(true);
    expect(isViewFile('/index.html')).toBe(false);
    expect(isViewFile('/assets/index-jc3QA4sn.js')).toBe(false);
    expect(isViewFile('/assets/index-bWdPlhqa.css')).toBe(false);
  });

  it('names the view files other than .html, which Cloudflare Pages redirects to the name without it', () => {
    expect(viewFilePath('benefits', 'K5_XddrEzu')).toBe('/assets/view-benefits-K5_XddrEzu.htm');
  });
});
