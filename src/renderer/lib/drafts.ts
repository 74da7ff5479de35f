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

const drafts = new Map<string, Draft<Record<string, unknown>>>();
const keyOf = ({ profileId, kind, key }: DraftScope) => JSON.stringify([profileId, kind, key]);

/** Keeps the draft of a record, or (null) forgets it: nothing left unsaved. */
export function keepDraft<Values extends Record<string, unknown>>(scope: DraftScope, draft: Draft<Values> | null) {
  if (draft) drafts.set(keyOf(scope), draft);
  else drafts.delete(keyOf(scope));
}

export function keptDraft<Values extends Record<string, unknown>>(scope: DraftScope): Draft<Values> | undefined {
  return drafts.get(keyOf(scope)) as Draft<Values> | undefined;
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
