/**
 * The access matrix's unsaved edits, kept per tenant on this computer until they are saved or discarded: leaving the
 * tab or the screen (or the app) and coming back finds them as they were, and one tenant's draft never shows under
 * another's. A draft holds each ticked or unticked cell, not a role's whole list of actions, so a role changed
 * elsewhere meanwhile keeps that change and the draft is applied on top of what the role holds now.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { z } from 'zod';

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

const storageKey = (tenant: string) => `mentor-admin:access-matrix-draft:${tenant}`;
const drafts = new Map<string, MatrixDraft>();
const listeners = new Set<() => void>();

function read(tenant: string): MatrixDraft {
  let draft = drafts.get(tenant);
  if (!draft) {
    let stored: unknown = null;
    try {
      stored = JSON.parse(localStorage.getItem(storageKey(tenant)) ?? 'null');
    } catch {
      // An unreadable draft is no draft.
    }
    const parsed = Draft.safeParse(stored);
    draft = parsed.success ? parsed.data : EMPTY;
    drafts.set(tenant, draft);
  }
  return draft;
}

function write(tenant: string, draft: MatrixDraft): void {
  drafts.set(tenant, draft);
  try {
    if (Object.keys(draft).length) localStorage.setItem(storageKey(tenant), JSON.stringify(draft));
    else localStorage.removeItem(storageKey(tenant));
  } catch {
    // Storage full or off: the draft still lives for this session.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** This tenant's draft and the way to change it (an empty draft discards it). */
export function useMatrixDraft(tenant: string): [MatrixDraft, (draft: MatrixDraft) => void] {
  const draft = useSyncExternalStore(subscribe, () => read(tenant));
  const set = useCallback((next: MatrixDraft) => write(tenant, next), [tenant]);
  return [draft, set];
}
