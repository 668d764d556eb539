import { describe, expect, it } from 'vitest';
import { chooseEncoding } from './compression.ts';

describe('chooseEncoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip', 'gzip'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['*', 'br'],
    ['*;q=0', undefined],
  ])('picks %o → %o', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
});
