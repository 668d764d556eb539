import { describe, expect, it } from 'vitest';
import {
  photoHeight,
  photoLayouts,
  photoWidths,
  srcset,
  type PhotoLayout,
} from './photo-layout.ts';

const square: PhotoLayout = { aspect: 1, cssWidth: 224 };

describe('photoWidths', () => {
  it.each([
    // A large photo gets its widest shown width at 1x and 2x.
    [3000, 2000, [224, 448]],
    // A small photo is never enlarged: a width it cannot fill becomes its own.
    [300, 300, [224, 300]],
    // The crop, not the whole photo, bounds the widths (a wide photo, a square place).
    [4000, 200, [200]],
    // A photo smaller than its place gives one width.
    [100, 100, [100]],
  ])('a %i × %i photo in a square place is offered at %j', (width, height, expected) => {
    expect(photoWidths(square, width, height)).toEqual(expected);
  });

  it("crops to the place: a tall place takes its width from a landscape photo's height", () => {
    expect(photoWidths(photoLayouts.room, 4000, 800)).toEqual([416, 640]);
  });
});

describe('photoHeight', () => {
  it.each([
    [photoLayouts.room, 416, 520],
    [photoLayouts.practitioner, 224, 224],
    [photoLayouts.kit, 288, 216],
  ])('follows the crop (%#)', (layout, width, height) => {
    expect(photoHeight(layout, width)).toBe(height);
  });
});

describe('srcset', () => {
  // A photo too small for 2x gets the density it can serve.
  it.each([
    [448, '/a-224.avif 1x, /a-448.avif 2x'],
    [300, '/a-224.avif 1x, /a-300.avif 1.34x'],
  ])('lists each file with the density it serves, the larger %i wide', (larger, expected) => {
    const files = [224, larger].map((width) => ({ url: `/a-${width}.avif`, width }));
    expect(srcset(square, files)).toBe(expected);
  });
});
