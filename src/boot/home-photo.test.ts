/**
 * Home's first-screen photo, held in a <noscript> in the page every address is
 * served, on a DOM of its own (happy-dom): put in place on home alone.
 */
import { Window } from 'happy-dom';
import { describe, expect, it } from 'vitest';
import { showHomePhoto } from './home-photo.ts';

const picture =
  '<picture class="hero-image"><img src="/assets/photos/room-1.webp" alt="The room &amp; its light" fetchpriority="high"></picture>';

/** Home's hero as the page's HTML has it, the script after the photo, at an address with `hash`. */
function heroAt(hash: string) {
  const window = new Window({ url: `https://example.test/${hash}` });
  const { document } = window;
  document.body.innerHTML = `<div class="hero-visual"><noscript>${picture}</noscript><script></script></div>`;
  // A browser running scripts parses a <noscript>'s content as text.
  const noscript = document.querySelector('noscript')!;
  noscript.replaceChildren(document.createTextNode(picture));
  const hero = document.querySelector('.hero-visual')!;
  const script = document.querySelector('script') as unknown as HTMLScriptElement;
  return { hero, run: () => showHomePhoto(window.location, script) };
}

describe("home's first-screen photo", () => {
  for (const hash of ['', '#', '#main']) {
    it(`is put in place where the page arrives at home (${hash || 'no fragment'})`, () => {
      const { hero, run } = heroAt(hash);
      run();
      // In place of the <noscript>, and the script gone: home's markup as the app renders it.
      expect(hero.innerHTML).toBe(picture);
      expect(hero.querySelector('img')?.getAttribute('alt')).toBe('The room & its light');
    });
  }

  for (const hash of ['#benefits', '#contact', '#nowhere']) {
    it(`stays held, never fetched, where the page arrives at another view (${hash})`, () => {
      const { hero, run } = heroAt(hash);
      run();
      expect(hero.querySelector('img')).toBeNull();
      expect(hero.querySelector('script')).toBeNull();
    });
  }
});
