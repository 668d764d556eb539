import { CupMark } from './cup-mark.tsx';

/** The hero's drawn motif, shown until the practitioner adds a photograph: soft circles and a cup. */
export function HeroArt() {
  return (
    <div className="hero-art" aria-hidden="true">
      <span className="hero-ring hero-ring-outer" />
      <span className="hero-ring hero-ring-middle" />
      <span className="hero-ring hero-ring-inner" />
      <CupMark className="hero-cup" />
      <span className="hero-dot hero-dot-a" />
      <span className="hero-dot hero-dot-b" />
      <span className="hero-dot hero-dot-c" />
    </div>
  );
}
