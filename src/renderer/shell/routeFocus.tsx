/**
 * Keyboard focus across routes, in one place for every screen: when the route changes (a record opened from a row,
 * the browser's Back), focus moves to the new page's main heading instead of falling to the document's body, and a
 * "Skip to content" link, the window's first Tab stop, moves it there past the header and the navigation.
 */
import { useEffect } from 'react';
import classes from './routeFocus.module.css';

export const MAIN_ID = 'main-content';
const HEADINGS = 'h1, h2';
/** How long a page may take to draw its heading (a record read first) before the screen's own heading is taken. */
const HEADING_WAIT_MS = 4000;

const pathOf = (hash: string) => hash.replace(/^#\/?/, '').split('?')[0] ?? '';
const mainElement = () => document.getElementById(MAIN_ID);

/** The page's main heading: the first of the screen's, else the main area itself. */
function pageHeading(main: HTMLElement): HTMLElement {
  return main.querySelector<HTMLElement>(HEADINGS) ?? main;
}

function focusHeading(target: HTMLElement): void {
  // Headings are not focusable by Tab; -1 lets focus be put there without adding a Tab stop.
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus();
}

/** Focus where the admin is acting within the page (a tab, a filter) or in a dialog stays where it is. */
function focusIsInUse(main: HTMLElement): boolean {
  const active = document.activeElement;
  if (!active || active === document.body || !active.isConnected) return false;
  return main.contains(active) || !!active.closest('[role="dialog"]');
}

/**
 * After a route change, focus goes to the heading the new page drew (one not there before: a record's name), or to
 * the screen's heading when the page drew none (back to a list). Waits for a page that draws its heading once read.
 */
function focusNewPage(before: ReadonlySet<Element>): () => void {
  const main = mainElement();
  if (!main) return () => {};
  let done = false;
  const fresh = () => [...main.querySelectorAll<HTMLElement>(HEADINGS)].find((heading) => !before.has(heading));
  const settle = (target: HTMLElement | undefined) => {
    if (done) return;
    done = true;
    observer.disconnect();
    clearTimeout(timer);
    if (target && !focusIsInUse(main)) focusHeading(target);
  };
  const observer = new MutationObserver(() => {
    const heading = fresh();
    if (heading) settle(heading);
  });
  observer.observe(main, { childList: true, subtree: true });
  const timer = setTimeout(() => settle(pageHeading(main)), HEADING_WAIT_MS);
  // What the route's first render drew already.
  requestAnimationFrame(() => {
    const heading = fresh();
    if (heading) settle(heading);
  });
  return () => {
    done = true;
    observer.disconnect();
    clearTimeout(timer);
  };
}

/** Mounted once by the shell: moves focus to each new page's heading. */
export function useFocusOnRouteChange(): void {
  useEffect(() => {
    let path = pathOf(window.location.hash);
    let stop = () => {};
    const onChange = () => {
      const next = pathOf(window.location.hash);
      // A changed query string (a filter) is the same page.
      if (next === path) return;
      path = next;
      stop();
      const main = mainElement();
      stop = focusNewPage(new Set(main ? main.querySelectorAll(HEADINGS) : []));
    };
    window.addEventListener('hashchange', onChange);
    return () => {
      window.removeEventListener('hashchange', onChange);
      stop();
    };
  }, []);
}

/** The window's first Tab stop, shown once focused: straight to the page's heading. */
export function SkipToContent() {
  return (
    <a
      href={`#${MAIN_ID}`}
      className={classes.skip}
      onClick={(event) => {
        // The hash is the route: the link moves focus, never the route.
        event.preventDefault();
        const main = mainElement();
        if (main) focusHeading(pageHeading(main));
      }}
    >
      Skip to content
    </a>
  );
}
