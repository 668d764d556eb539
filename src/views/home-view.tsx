import { Activity } from '../components/icons/activity.ts';
import { Briefcase } from '../components/icons/briefcase.ts';
import { Dumbbell } from '../components/icons/dumbbell.ts';
import { Heart } from '../components/icons/heart.ts';
import { MoonStar } from '../components/icons/moon-star.ts';
import { Sun } from '../components/icons/sun.ts';
import { Zap } from '../components/icons/zap.ts';
import type { LucideIcon } from '../components/icons/lucide-icon.tsx';
import { bookingHeroClass } from '../boot/protocol.ts';
import { site, type AudienceIconName } from '../content/site.ts';
import { BookButton } from '../components/book-button.tsx';
import { CardGrid } from '../components/card-grid.tsx';
import { ContactDetails } from '../components/contact-details.tsx';
import { HeroArt } from '../components/hero-art.tsx';
import { OpeningStatusLine } from '../components/opening-status.tsx';
import { PractitionerCard } from '../components/practitioner-card.tsx';
import { Reveal, revealStep } from '../components/reveal.tsx';
import { SessionPrices } from '../components/session-prices.tsx';
import { ViewHeading } from '../components/view-heading.tsx';
import { Photo } from '../components/photo.tsx';
import { PageLink } from '../navigation/page-link.tsx';

const audienceIcons: Record<AudienceIconName, LucideIcon> = {
  dumbbell: Dumbbell,
  briefcase: Briefcase,
  activity: Activity,
  'moon-star': MoonStar,
  zap: Zap,
  sun: Sun,
  heart: Heart,
};

export function HomeView() {
  const { hero, whatIs, whoCanBenefit, sessions, getInTouch } = site.home;
  return (
    <>
      <section className="hero" aria-labelledby="hero-title">
        <div className="container hero-inner">
          <div className="hero-text">
            <p className="eyebrow">{hero.eyebrow}</p>
            <ViewHeading id="hero-title" className="hero-title">
              {hero.title}
            </ViewHeading>
            <p className="hero-lead">{hero.lead}</p>
            <div className="hero-actions">
              <BookButton className={bookingHeroClass} />
              <p className="hero-reassurance">{hero.reassurance}</p>
            </div>
          </div>
          <div className="hero-visual">
            <Photo slot={hero.image} className="hero-image" priority fallback={<HeroArt />} />
          </div>
        </div>
      </section>

      <section className="section" aria-labelledby="what-is-hijama">
        <div className="container">
          <Reveal>
            <h2 id="what-is-hijama" className="section-title">
              {whatIs.heading}
            </h2>
          </Reveal>
          <ol className="statements">
            {whatIs.statements.map((statement, index) => (
              <Reveal as="li" key={statement} step={revealStep(index)} className="statement">
                <span className="statement-number" aria-hidden="true">
                  {String(index + 1).padStart(2, '0')}
                </span>
                <p>{statement}</p>
              </Reveal>
            ))}
          </ol>
        </div>
      </section>

      <section className="section section-tinted" aria-labelledby="who-can-benefit">
        <div className="container">
          <Reveal className="section-intro">
            <h2 id="who-can-benefit" className="section-title">
              {whoCanBenefit.heading}
            </h2>
            <p>{whoCanBenefit.intro}</p>
          </Reveal>
          <CardGrid cards={whoCanBenefit.cards} icons={audienceIcons} className="card-grid-three" />
          <div className="section-action">
            <BookButton label={whoCanBenefit.cta} />
          </div>
        </div>
      </section>

      <section className="section" aria-labelledby="sessions-and-prices">
        <div className="container">
          <div className="section-intro">
            <h2 id="sessions-and-prices" className="section-title">
              {sessions.heading}
            </h2>
            <p>{sessions.intro}</p>
          </div>
          <SessionPrices withDescriptions />
        </div>
      </section>

      <section className="section section-tinted" aria-labelledby="practitioner">
        <div className="container">
          <PractitionerCard />
        </div>
      </section>

      <section className="section" aria-labelledby="get-in-touch">
        <div className="container">
          <Reveal className="touch-card">
            <div className="touch-text">
              <h2 id="get-in-touch" className="section-title">
                {getInTouch.heading}
              </h2>
              <p>
                {getInTouch.intro.before}
                <PageLink page="contact" className="inline-link">
                  {getInTouch.intro.link}
                </PageLink>
                {getInTouch.intro.after}
              </p>
              <p className="reply-promise">{site.contactDetails.replyPromise}</p>
              <OpeningStatusLine />
            </div>
            <ContactDetails className="touch-details" />
          </Reveal>
        </div>
      </section>
    </>
  );
}
