import { describe, expect, it } from 'vitest';
import { answerLink } from '../../supabase/functions/_shared/core/answer-link.ts';
import { pageNameFromHash, viewOfPageName } from '../boot/protocol.ts';
import { isPageName, urlFor, viewFor } from './page-name.ts';

const token = `5f0c2a8e-2f4b-4c1d-9e3f-0a1b2c3d4e5f.1790000000.${'ab'.repeat(32)}`;
const menuPages = ['home', 'benefits', 'testimonials', 'location', 'contact'];

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
    ...menuPages.map((name) => [name, name]),
    ['pricing', 'coming-soon'],
    ['Home', 'coming-soon'],
    ['', 'coming-soon'],
    [`answer=${token}`, 'answer'],
    // Malformed: the answer view says the link is not valid.
    ['answer=not-a-token', 'answer'],
    ['answers', 'coming-soon'],
  ])('the page name %j shows the %j view', (name, view) => {
    expect(viewFor(name)).toBe(view);
  });

  it('knows exactly the five pages of the menu', () => {
    expect(menuPages.every(isPageName)).toBe(true);
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

describe('viewOfPageName', () => {
  it("finds an answer link's view code under the name of the view it shows", () => {
    const pageName = pageNameFromHash(new URL(answerLink('https://site', token)).hash);
    expect(viewOfPageName(pageName)).toBe(viewFor(pageName));
    expect(viewOfPageName('contact')).toBe('contact');
  });
});
