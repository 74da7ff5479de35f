import { useCallback, useSyncExternalStore } from 'react';

/** The screen id from `#/<id>`; the query string is left untouched. */
function currentRoute(): string | undefined {
  return window.location.hash.replace(/^#\/?/, '').split(/[/?]/)[0] || undefined;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

export function useHashRoute(): [route: string | undefined, navigate: (id: string) => void] {
  const route = useSyncExternalStore(subscribe, currentRoute);
  const navigate = useCallback((id: string) => {
    window.location.hash = `/${id}`;
  }, []);
  return [route, navigate];
}
