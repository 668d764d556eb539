import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  brandColours,
  customPropertyName,
  type BrandColour,
} from '../../supabase/functions/_shared/core/brand-colours.ts';
import { site } from '../content/site.ts';

/** base.css and the content file cannot import the palette: they are held to it here. */
describe('the brand colours', () => {
  const css = readFileSync(new URL('./base.css', import.meta.url), 'utf8');
  const declared = Object.fromEntries(
    [...css.matchAll(/^\s*(--[a-z0-9-]+):\s*(#[0-9a-f]{6});/gim)].map((match) => [
      match[1],
      match[2]!.toLowerCase(),
    ]),
  );

  it("are base.css's custom properties, every one of them", () => {
    const expected = Object.fromEntries(
      (Object.keys(brandColours) as BrandColour[]).map((colour) => [
        customPropertyName(colour),
        brandColours[colour],
      ]),
    );
    expect(declared).toEqual(expected);
  });

  it("give the browser's theme and background colours", () => {
    expect(site.seo.themeColor).toBe(brandColours.teal800);
    expect(site.seo.backgroundColor).toBe(brandColours.sand50);
  });
});
