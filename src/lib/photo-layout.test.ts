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
    ['a large photo gets its widest shown width at 1x and 2x', 3000, 2000, [224, 448]],
    [
      'a small photo is never enlarged: a width it cannot fill becomes its own',
      300,
      300,
      [224, 300],
    ],
    [
      'the crop, not the whole photo, bounds the widths (a wide photo, a square place)',
      4000,
      200,
      [200],
    ],
    ['a photo smaller than its place gives one width', 100, 100, [100]],
  ])('%s', (_, width, height, expected) => {
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
  it('lists each file with the density it serves', () => {
    expect(
      srcset(square, [
        { url: '/a-224.avif', width: 224 },
        { url: '/a-448.avif', width: 448 },
      ]),
    ).toBe('/a-224.avif 1x, /a-448.avif 2x');
  });

  it('gives a photo too small for 2x the density it can serve', () => {
    expect(
      srcset(square, [
        { url: '/a-224.webp', width: 224 },
        { url: '/a-300.webp', width: 300 },
      ]),
    ).toBe('/a-224.webp 1x, /a-300.webp 1.34x');
  });
});
