/**
 * The access matrix's unsaved edits, kept per tenant on this computer (the app's draft store, persisted) until they
 * are saved or discarded: leaving the tab or the screen (or the app) and coming back finds them as they were, and one
 * tenant's draft never shows under another's. A draft holds each ticked or unticked cell, not a role's whole list of actions, so a role changed
 * elsewhere meanwhile keeps that change and the draft is applied on top of what the role holds now.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { z } from 'zod';
import { keepDraft, keptDraft, subscribeDrafts } from '../../lib/drafts';

/** Per role id, per action: true to grant it, false to take it away. */
const Draft = z.record(z.string(), z.record(z.string(), z.boolean()));
export type MatrixDraft = Readonly<Record<string, Readonly<Record<string, boolean>>>>;

interface Role {
  id: number;
  actions: readonly string[];
}

const EMPTY: MatrixDraft = Object.freeze({});

/** The actions a role would hold with the draft applied. */
export function actionsWith(role: Role, draft: MatrixDraft): Set<string> {
  const actions = new Set(role.actions);
  for (const [action, on] of Object.entries(draft[role.id] ?? {})) {
    if (on) actions.add(action);
    else actions.delete(action);
  }
  return actions;
}

/** The draft with one cell set; a cell set back to what the role holds is no longer an edit. */
export function withCell(draft: MatrixDraft, role: Role, action: string, on: boolean): MatrixDraft {
  const { [action]: _was, ...cells }: Record<string, boolean> = draft[role.id] ?? {};
  if (role.actions.includes(action) !== on) cells[action] = on;
  const { [role.id]: _role, ...rest } = draft;
  return Object.keys(cells).length ? { ...rest, [role.id]: cells } : rest;
}

/** The roles the draft changes, each with the whole list of actions it would hold (what its update sends). */
export function changedRoles(roles: readonly Role[], draft: MatrixDraft): { id: number; actions: string[] }[] {
  return roles.flatMap((role) => {
    if (!draft[role.id]) return [];
    const after = actionsWith(role, draft);
    const same = after.size === role.actions.length && role.actions.every((action) => after.has(action));
    return same ? [] : [{ id: role.id, actions: [...after] }];
  });
}

const keeping = {
  persist: true,
  parse: (stored: unknown) => {
    const parsed = Draft.safeParse(stored);
    return parsed.success ? parsed.data : undefined;
  },
};
const scopeOf = (tenant: string) => ({ profileId: tenant, kind: 'access-matrix', key: 'roles' });

/** This tenant's draft and the way to change it (an empty draft discards it). */
export function useMatrixDraft(tenant: string): [MatrixDraft, (draft: MatrixDraft) => void] {
  const draft = useSyncExternalStore(subscribeDrafts, () => keptDraft<MatrixDraft>(scopeOf(tenant), keeping) ?? EMPTY);
  const set = useCallback(
    (next: MatrixDraft) => keepDraft(scopeOf(tenant), Object.keys(next).length ? next : null, keeping),
    [tenant],
  );
  return [draft, set];
}
