import { describe, expect, it } from 'vitest';
import { shortReference } from './booking-reference.ts';

describe('shortReference', () => {
  it.each([
    ['5f0c2a8e-2f4b-4d0e-9a47-0a1b2c3d4e5f', '5F0C2A8E'],
    ['00000000-0000-4000-8000-000000000002', '00000000'],
    ['ABCDEF01-2345-4000-8000-000000000000', 'ABCDEF01'],
  ])('gives %s the reference %s', (id, reference) => {
    expect(shortReference(id)).toBe(reference);
  });
});
