import { describe, expect, it } from 'vitest';
import { pageNameFromHash } from '../boot/protocol.ts';
import { isPageName, urlFor, viewFor } from './page-name.ts';

describe('pageNameFromHash', () => {
  it.each([
    ['', 'home'],
    ['#', 'home'],
    ['#home', 'home'],
    ['#benefits', 'benefits'],
    ['#contact', 'contact'],
    ['#pricing', 'pricing'],
    ['#%20contact', 'contact'],
    ['#main', 'home'],
    // Not an encoding: taken as typed rather than breaking the page.
    ['#%E0%A4%A', '%E0%A4%A'],
    ['#100%', '100%'],
  ])('%j names the page %j', (hash, name) => {
    expect(pageNameFromHash(hash)).toBe(name);
  });
});

describe('viewFor', () => {
  it.each([
    ['home', 'home'],
    ['benefits', 'benefits'],
    ['testimonials', 'testimonials'],
    ['location', 'location'],
    ['contact', 'contact'],
    ['pricing', 'coming-soon'],
    ['Home', 'coming-soon'],
    ['', 'coming-soon'],
  ])('the page name %j shows the %j view', (name, view) => {
    expect(viewFor(name)).toBe(view);
  });

  it('knows exactly the five pages of the menu', () => {
    expect(['home', 'benefits', 'testimonials', 'location', 'contact'].every(isPageName)).toBe(
      true,
    );
    expect(isPageName('coming-soon')).toBe(false);
  });
});

describe('urlFor', () => {
  it('gives home the bare path and other pages a fragment', () => {
    expect(urlFor('home')).toBe('/');
    expect(urlFor('benefits')).toBe('/#benefits');
    expect(urlFor('contact', '/clinic/')).toBe('/clinic/#contact');
  });
});
