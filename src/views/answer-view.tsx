import { CircleAlert } from '../components/icons/circle-alert.ts';
import { CircleCheck } from '../components/icons/circle-check.ts';
import { MailCheck } from '../components/icons/mail-check.ts';
import { useEffect, useRef, useState } from 'react';
import { parseAnswerFragment } from '../../supabase/functions/_shared/core/answer-link.ts';
import { shortReference } from '../../supabase/functions/_shared/core/booking-reference.ts';
import { formatAnsweredAt, type AnswerOutcome } from '../answer/answer-outcome.ts';
import { markAnswered, unmarkAnswered } from '../answer/mark-answered.ts';
import { ViewHeading } from '../components/view-heading.tsx';
import { site } from '../content/site.ts';
import { PageLink } from '../navigation/page-link.tsx';
import { useNavigation } from '../navigation/navigation.ts';

type AnswerState = { kind: 'ready' } | { kind: 'marking' } | { kind: 'undoing' } | AnswerOutcome;

/**
 * The page the "Mark as answered" link of a booking e-mail opens
 * (/#answer=<token>). Opening it changes nothing and fetches nothing, since
 * mail scanners open links too: only its button marks the request, and a
 * second tap answers as the first did. It shows the request's short reference
 * alone, read from the link: nothing personal is on it. Once marked, "Undo"
 * takes the mark back (a slip of the thumb on a phone), and the button to
 * mark it comes back.
 */
export function AnswerView() {
  const { answerPage } = site;
  const { pageName } = useNavigation();
  const link = parseAnswerFragment(pageName);
  const reference = link ? shortReference(link.bookingId) : undefined;
  // A link that cannot be a token is refused here, without asking anyone.
  const [state, setState] = useState<AnswerState>(link ? { kind: 'ready' } : { kind: 'invalid' });
  useNoIndex(`${answerPage.heading} · ${site.practiceName}`);
  const result = useRef<HTMLDivElement>(null);

  // What a failure offers again is what failed: an Undo that did not go through leaves
  // the request answered, which a button to mark it would not mend.
  const [lastAsked, setLastAsked] = useState<'marking' | 'undoing'>('marking');
  const failed = state.kind === 'failed';
  const canMark =
    ['ready', 'marking', 'unmarked'].includes(state.kind) || (failed && lastAsked === 'marking');
  const canUndo =
    state.kind === 'answered' || state.kind === 'undoing' || (failed && lastAsked === 'undoing');
  // The button tapped goes once it has done its work (another takes its
  // place): focus moves to what it ended in rather than falling back to the
  // top of the page.
  const settled =
    link !== undefined && !['ready', 'marking', 'undoing', 'failed'].includes(state.kind);
  useEffect(() => {
    if (settled) result.current?.focus();
  }, [settled, state.kind]);

  /** Shows `pending` while `call` asks the API, then what it answered. */
  async function ask(pending: 'marking' | 'undoing', call: typeof markAnswered) {
    if (!link) return;
    setLastAsked(pending);
    setState({ kind: pending });
    setState(await call(link.token));
  }

  return (
    <section className="coming-soon answer-page">
      <div className="container coming-soon-inner">
        <span className="coming-soon-icon">
          {state.kind === 'answered' || state.kind === 'undoing' ? (
            <CircleCheck aria-hidden="true" />
          ) : (
            <MailCheck aria-hidden="true" />
          )}
        </span>
        <ViewHeading>{answerPage.heading}</ViewHeading>
        {reference ? (
          <p className="page-subtitle">
            <strong>{answerPage.reference(reference)}</strong>
          </p>
        ) : null}
        {/* Always present, so that what the button ends in is read out. */}
        <div className="answer-result" aria-live="polite" tabIndex={-1} ref={result}>
          {state.kind === 'answered' ? (
            <p>
              <strong>{answerPage.answeredHeading}</strong>
              <br />
              {answerPage.answeredAt(
                formatAnsweredAt(state.answeredAt, site.locale, site.timeZone),
              )}
            </p>
          ) : null}
          {state.kind === 'unmarked' ? (
            <p>
              <strong>{answerPage.unmarkedHeading}</strong>
              <br />
              {answerPage.unmarked}
            </p>
          ) : null}
          {refusalMessage(state, reference) ? (
            <p className="form-failure">
              <CircleAlert aria-hidden="true" className="form-failure-icon" />
              <span>{refusalMessage(state, reference)}</span>
            </p>
          ) : null}
        </div>
        {state.kind === 'ready' ? <p>{answerPage.intro}</p> : null}
        <div className="coming-soon-actions">
          {canUndo ? (
            <button
              type="button"
              className="button button-secondary"
              disabled={state.kind === 'undoing'}
              aria-busy={state.kind === 'undoing'}
              onClick={() => void ask('undoing', unmarkAnswered)}
            >
              {state.kind === 'undoing' ? answerPage.undoing : answerPage.undo}
            </button>
          ) : null}
          {canMark ? (
            <button
              type="button"
              className="button button-primary"
              disabled={state.kind === 'marking'}
              aria-busy={state.kind === 'marking'}
              onClick={() => void ask('marking', markAnswered)}
            >
              {state.kind === 'marking' ? answerPage.marking : answerPage.button}
            </button>
          ) : null}
          <PageLink page="home" className="button button-secondary">
            {site.comingSoon.homeLink}
          </PageLink>
        </div>
      </div>
    </section>
  );
}

/** What to do after a refusal, or undefined when there was none. */
function refusalMessage(state: AnswerState, reference: string | undefined): string | undefined {
  const { answerPage } = site;
  switch (state.kind) {
    case 'invalid':
      return answerPage.invalid(reference);
    case 'expired':
      return answerPage.expired(reference ?? '');
    case 'not-stored':
      return answerPage.notStored;
    case 'failed':
      return answerPage.failed;
    default:
      return undefined;
  }
}

/**
 * Keeps the page out of search engines and names it in the browser's tab
 * while it is open; the site's own tags come back when the visitor leaves.
 */
function useNoIndex(title: string) {
  useEffect(() => {
    const robots = document.createElement('meta');
    robots.name = 'robots';
    robots.content = 'noindex, nofollow';
    document.head.appendChild(robots);
    const siteTitle = document.title;
    document.title = title;
    return () => {
      robots.remove();
      document.title = siteTitle;
    };
  }, [title]);
}
