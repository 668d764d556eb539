import { Activity } from '../components/icons/activity.ts';
import { Brain } from '../components/icons/brain.ts';
import { Droplets } from '../components/icons/droplets.ts';
import { Flame } from '../components/icons/flame.ts';
import { HeartPulse } from '../components/icons/heart-pulse.ts';
import { Info } from '../components/icons/info.ts';
import { Leaf } from '../components/icons/leaf.ts';
import { Shield } from '../components/icons/shield.ts';
import { Sparkles } from '../components/icons/sparkles.ts';
import { Waves } from '../components/icons/waves.ts';
import type { LucideIcon } from '../components/icons/lucide-icon.tsx';
import { site, type BenefitIconName } from '../content/site.ts';
import { CardGrid } from '../components/card-grid.tsx';
import { ClosingCall } from '../components/closing-call.tsx';
import { Photo } from '../components/photo.tsx';
import { PageHeader } from '../components/page-header.tsx';

const benefitIcons: Record<BenefitIconName, LucideIcon> = {
  waves: Waves,
  'heart-pulse': HeartPulse,
  droplets: Droplets,
  brain: Brain,
  activity: Activity,
  leaf: Leaf,
  flame: Flame,
  shield: Shield,
  sparkles: Sparkles,
};

export function BenefitsView() {
  const { heading, subtitle, intro, cards, firstVisit } = site.benefits;
  return (
    <>
      <PageHeader title={heading} subtitle={subtitle} />
      <section className="section section-flush" aria-label={heading}>
        <div className="container">
          <p className="section-lead">{intro}</p>
          <aside className="disclaimer" aria-label={site.chrome.healthNotice}>
            <Info aria-hidden="true" className="disclaimer-icon" />
            <p>{site.disclaimer}</p>
          </aside>
          <CardGrid
            cards={cards}
            icons={benefitIcons}
            headingLevel={2}
            className="card-grid-four"
          />
          <div className="section-intro first-visit">
            <h2 className="section-title">{firstVisit.heading}</h2>
            <p>{firstVisit.intro}</p>
          </div>
          <div className="first-visit-body">
            <Photo slot={firstVisit.photo} className="first-visit-photo" />
            {/* A first-timer's questions, each opening on a tap or a key (native <details>). */}
            <div className="questions">
              {firstVisit.questions.map(({ question, answer }) => (
                <details key={question} className="question">
                  <summary>{question}</summary>
                  <div className="answer">
                    {answer.map((paragraph) => (
                      <p key={paragraph}>{paragraph}</p>
                    ))}
                  </div>
                </details>
              ))}
            </div>
          </div>
          <ClosingCall />
        </div>
      </section>
    </>
  );
}
