import { useSyncExternalStore } from 'react';

/**
 * Routes below a screen: `#/mentors/<unique id>`, `#/jobs/<job id>`. The screen itself is chosen by
 * useHashRoute (the first segment); this reads the rest, decoded.
 */
function currentSubPath(): string {
  return window.location.hash.replace(/^#\/?/, '').split('/').slice(1).join('/');
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

/** The decoded segments after the screen id, e.g. `['3f2a…']` on `#/jobs/3f2a…`. */
export function useSubRoute(): string[] {
  const sub = useSyncExternalStore(subscribe, currentSubPath);
  return sub
    ? sub.split('/').map((segment) => {
        try {
          return decodeURIComponent(segment);
        } catch {
          return segment;
        }
      })
    : [];
}

export const mentorsHref = () => '#/mentors';
export const mentorHref = (uniqueId: string) => `#/mentors/${encodeURIComponent(uniqueId)}`;
export const jobsHref = () => '#/jobs';
export const jobHref = (id: string) => `#/jobs/${encodeURIComponent(id)}`;
export const settingsHref = () => '#/settings';

/** Goes to an `href` made above; the query string stays as it is. */
export function navigateTo(href: string): void {
  window.location.hash = href.replace(/^#/, '');
}
