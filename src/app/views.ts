import { lazy, type ComponentType } from 'react';
import { ComingSoonView } from '../views/coming-soon-view.tsx';
import { HomeView } from '../views/home-view.tsx';
import type { ViewName } from './page-name.ts';

// Home is part of the first load (and pre-rendered); every other view is its
// own small chunk, fetched when the visitor shows intent to go there.
const loaders = {
  benefits: () =>
    import('../views/benefits-view.tsx').then((module) => ({ default: module.BenefitsView })),
  testimonials: () =>
    import('../views/testimonials-view.tsx').then((module) => ({
      default: module.TestimonialsView,
    })),
  location: () =>
    import('../views/location-view.tsx').then((module) => ({ default: module.LocationView })),
  contact: () =>
    import('../views/contact-view.tsx').then((module) => ({ default: module.ContactView })),
};

// The page of the e-mail's "Mark as answered" link: no menu links to it, so
// nothing preloads it; it is fetched when the link is opened.
const loadAnswerView = () =>
  import('../views/answer-view.tsx').then((module) => ({ default: module.AnswerView }));

export const views: Record<ViewName, ComponentType> = {
  home: HomeView,
  'coming-soon': ComingSoonView,
  benefits: lazy(loaders.benefits),
  testimonials: lazy(loaders.testimonials),
  location: lazy(loaders.location),
  contact: lazy(loaders.contact),
  answer: lazy(loadAnswerView),
};

/** Starts fetching a view's code, e.g. when a link to it is hovered or the menu opens. */
export function preloadView(view: ViewName): void {
  if (view in loaders) {
    void loaders[view as keyof typeof loaders]().catch(() => {
      // The real navigation retries and shows its own failure.
    });
  }
}

export function preloadAllViews(): void {
  for (const view of Object.keys(loaders) as ViewName[]) preloadView(view);
}
