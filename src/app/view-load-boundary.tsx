import { Component, type ReactNode } from 'react';
import { ViewHeading } from '../components/view-heading.tsx';
import { site } from '../content/site.ts';
import { noteFirstViewShown } from '../lib/first-view.ts';
import { PageLink } from '../navigation/page-link.tsx';

/**
 * Around the view: a view whose code did not arrive (offline, or a new
 * deployment has replaced its file) would otherwise make React take the whole
 * page away, the menu and the booking form's typed values with it. The page
 * stays, and says what to do; the app keys it by page, so another view is
 * tried afresh. Reloading is the retry: a module that failed to load is not
 * fetched again by the same page.
 */
export class ViewLoadBoundary extends Component<
  // `onFailed`: the app then names the page in the tab and the history as what is shown.
  { children: ReactNode; onFailed: () => void },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  // On arrival, this is the first view: the page answers to clicks from now on.
  override componentDidCatch() {
    this.props.onFailed();
    noteFirstViewShown();
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    const copy = site.viewLoadFailed;
    return (
      <section className="coming-soon">
        <div className="container coming-soon-inner">
          <ViewHeading>{copy.heading}</ViewHeading>
          <p>{copy.text}</p>
          <div className="coming-soon-actions">
            <button
              type="button"
              className="button button-primary"
              onClick={() => window.location.reload()}
            >
              {copy.reload}
            </button>
            <PageLink page="home" className="button button-secondary">
              {site.comingSoon.homeLink}
            </PageLink>
          </div>
        </div>
      </section>
    );
  }
}
