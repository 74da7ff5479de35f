import { createContext, useContext, useSyncExternalStore } from 'react';

/**
 * Routes below a screen: `#/mentors/<unique id>`, `#/jobs/<job id>`. The screen itself is chosen by
 * useHashRoute (the first segment); this reads the rest, decoded.
 */
/** The route as `screen/sub…`, one string so a change of either is one change. */
function currentPath(): string {
  return window.location.hash.replace(/^#\/?/, '').split('?')[0] ?? '';
}

/** The route's query string (`#/<area>/<kind>?course_id=…`), without its `?`. */
function currentQuery(): string {
  const at = window.location.hash.indexOf('?');
  return at < 0 ? '' : window.location.hash.slice(at + 1);
}

/** The screen a component is drawn in (set by the shell around each screen). */
export const ScreenRouteContext = createContext<string | null>(null);

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

/**
 * The decoded segments after the screen id, e.g. `['3f2a…']` on `#/jobs/3f2a…`. Inside a screen, only that screen's
 * own route counts: while the window moves to another screen's `#/other/…`, the screen being left sees none (it
 * must not act on a route that is not its own, say by routing back to itself).
 */
export function useSubRoute(): string[] {
  const screen = useContext(ScreenRouteContext);
  const path = useSyncExternalStore(subscribe, currentPath);
  const [first = '', ...rest] = path.split('/');
  const sub = screen === null || first === screen ? rest.join('/') : '';
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

/** The route's query string: what a link asked the page for (a list narrowed to one course's records). */
export function useRouteQuery(): string {
  return useSyncExternalStore(subscribe, currentQuery);
}

/** The same page without its query (a list's narrowing taken away), so a link narrowing it again is a change. */
export function dropRouteQuery(): void {
  if (currentQuery()) navigateTo(`#/${currentPath()}`);
}

/** A kind's list narrowed to the records whose fields hold these values (`#/<area>/<kind>?field=value`). */
export function narrowedListHref(area: string, kind: string, where: Readonly<Record<string, string>>): string {
  return `#/${area}/${kind}?${new URLSearchParams(where).toString()}`;
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
