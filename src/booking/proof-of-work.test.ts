import { describe, expect, it } from 'vitest';
import {
  encodeBookingProof,
  isBookingChallenge,
  isProofOfWorkRequired,
  solverConcurrency,
  type BookingChallenge,
} from './proof-of-work.ts';

const challenge: BookingChallenge = {
  algorithm: 'SHA-256',
  challenge: 'a'.repeat(64),
  maxnumber: 100_000,
  salt: '0123456789abcdef01234567?expires=1800000000&',
  signature: 'b'.repeat(64),
};

describe('the proof-of-work header', () => {
  const decode = (header: string): unknown => JSON.parse(Buffer.from(header, 'base64').toString());

  it('is base64 of the JSON the database reads: algorithm, challenge, number, salt, signature', () => {
    expect(decode(encodeBookingProof(challenge, 4321))).toEqual({
      algorithm: 'SHA-256',
      challenge: challenge.challenge,
      number: 4321,
      salt: challenge.salt,
      signature: challenge.signature,
    });
  });

  it('survives characters beyond Latin-1 in a salt', () => {
    const header = encodeBookingProof({ ...challenge, salt: 'sel–é?expires=1&' }, 1);
    expect(decode(header)).toMatchObject({ salt: 'sel–é?expires=1&' });
  });
});

describe('what counts as a challenge', () => {
  it.each([
    ['the API’s challenge', challenge, true],
    ['another algorithm', { ...challenge, algorithm: 'SHA-1' }, false],
    ['a challenge that is not a SHA-256 in hex', { ...challenge, challenge: 'xyz' }, false],
    ['no maxnumber', { ...challenge, maxnumber: undefined }, false],
    ['a maxnumber of 0', { ...challenge, maxnumber: 0 }, false],
    ['a maxnumber beyond what the database issues', { ...challenge, maxnumber: 10_000_001 }, false],
    ['a fractional maxnumber', { ...challenge, maxnumber: 10.5 }, false],
    ['no salt', { ...challenge, salt: undefined }, false],
    ['no signature', { ...challenge, signature: 7 }, false],
    ['null', null, false],
    ['an array', [challenge], false],
  ])('%s: %s', (_name, value, expected) => {
    expect(isBookingChallenge(value)).toBe(expected);
  });
});

describe('when a proof is asked for', () => {
  it.each([
    [428, 'PT428', true],
    [428, undefined, true],
    [0, 'PT428', true],
    [429, 'PT429', false],
    [400, 'PT400', false],
    [201, undefined, false],
  ])('status %i, code %s: %s', (status, code, expected) => {
    expect(isProofOfWorkRequired(status, code)).toBe(expected);
  });
});

describe('how many workers search', () => {
  it.each([
    [undefined, 1],
    [0, 1],
    [1, 1],
    [2, 2],
    [4, 4],
    [8, 4],
    [Number.NaN, 1],
  ])('with %s cores: %i', (cores, expected) => {
    expect(solverConcurrency(cores)).toBe(expected);
  });
});
