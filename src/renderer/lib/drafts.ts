/**
 * Unsaved edits of a form the admin left for another screen, tab or tenant, kept in this window until they come
 * back. A draft is keyed by tenant and record, so it never shows under another tenant or another record; it keeps
 * the values it was edited against, so coming back can tell what the platform changed meanwhile.
 */

/** Whose draft: the tenant, the kind of record and the record. */
export interface DraftScope {
  profileId: string;
  kind: string;
  key: string;
}

export interface Draft<Values extends Record<string, unknown>> {
  /** The record's values when the editing started (what the edits were made against). */
  base: Values;
  /** The form's values as the admin left them. */
  values: Values;
}

const drafts = new Map<string, unknown>();
const listeners = new Set<() => void>();
const keyOf = ({ profileId, kind, key }: DraftScope) => JSON.stringify([profileId, kind, key]);
const storageKey = (scope: DraftScope) => `mentor-admin:draft:${keyOf(scope)}`;

/**
 * Where a draft lives: this window by default; `persist` also keeps it on this computer (localStorage) across reloads
 * and restarts, read back through `parse`, which refuses what is not a draft of that kind.
 */
export interface DraftKeeping<T> {
  persist?: boolean;
  parse?: (stored: unknown) => T | undefined;
}

/** Keeps the draft of a record, or (null) forgets it: nothing left unsaved. */
export function keepDraft<T>(scope: DraftScope, draft: T | null, keeping: DraftKeeping<T> = {}) {
  if (draft) drafts.set(keyOf(scope), draft);
  else drafts.delete(keyOf(scope));
  if (keeping.persist) {
    try {
      if (draft) localStorage.setItem(storageKey(scope), JSON.stringify(draft));
      else localStorage.removeItem(storageKey(scope));
    } catch {
      // Storage full or off: the draft still lives in this window.
    }
  }
  for (const listener of listeners) listener();
}

/** The draft kept for a record (the same object until it changes, as React's external stores need). */
export function keptDraft<T>(scope: DraftScope, keeping: DraftKeeping<T> = {}): T | undefined {
  const key = keyOf(scope);
  if (!drafts.has(key) && keeping.persist) {
    let stored: unknown = null;
    try {
      stored = JSON.parse(localStorage.getItem(storageKey(scope)) ?? 'null');
    } catch {
      // An unreadable draft is no draft.
    }
    const draft = stored === null ? undefined : keeping.parse ? keeping.parse(stored) : (stored as T);
    if (draft !== undefined) drafts.set(key, draft);
  }
  return drafts.get(key) as T | undefined;
}

/** Hears every change of any draft (for useSyncExternalStore). */
export function subscribeDrafts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The draft on top of the record as it is now: the fields the admin edited keep their values, every other field takes
 * the record's current one (so nothing they did not touch is written back over a change made elsewhere). `conflicts`
 * are the edited fields the record changed meanwhile to something else than the edit: saving would replace them.
 */
export function rebaseDraft<Values extends Record<string, unknown>>(
  draft: Draft<Values>,
  current: Values,
): { values: Values; edited: string[]; conflicts: string[] } {
  const edited = Object.keys(current).filter((name) => !same(draft.values[name], draft.base[name]));
  const values = { ...current };
  for (const name of edited) (values as Record<string, unknown>)[name] = draft.values[name];
  const conflicts = edited.filter(
    (name) => !same(current[name], draft.base[name]) && !same(current[name], draft.values[name]),
  );
  return { values, edited, conflicts };
}
