/**
 * Handles for files and folders the admin chose: the shell (Electron's main process after a dialog or a drop,
 * browser mode's host after a staged upload) records the real path and gives the page an unguessable handle that
 * names it — for one owner (the window or the page that received it), for one access (read or write), for a
 * limited time. The page passes handles back in contract calls and the shell resolves them before the engine sees
 * the call (gate.ts); a path the page made up itself resolves to nothing.
 */
import { randomBytes } from 'node:crypto';
import type { PathAccess } from '../../shared/contract';

/** Unused for this long, a handle expires (each use renews it): long enough for a preview left open a while. */
export const HANDLE_IDLE_MS = 60 * 60 * 1000;
/** At most this many live handles; the oldest go first (a drop names its top-level items, not every file). */
export const MAX_HANDLES = 50_000;

const HANDLE = /^fh_[A-Za-z0-9_-]{43}$/;

export type Refusal = 'unknown' | 'expired' | 'foreign' | 'access';
export type Resolution = { ok: true; path: string } | { ok: false; reason: Refusal };

interface Grant {
  path: string;
  access: PathAccess;
  owner: string;
  lastUsed: number;
}

export interface HandleRegistryOptions {
  idleMs?: number;
  maxHandles?: number;
  now?: () => number;
}

/** Whether a value is shaped like a handle (it may still be unknown, expired or someone else's). */
export const looksLikeHandle = (value: unknown): value is string => typeof value === 'string' && HANDLE.test(value);

export class HandleRegistry {
  // Insertion order is age order: re-inserted on use, so the first entries are the least recently used.
  private readonly grants = new Map<string, Grant>();
  private readonly idleMs: number;
  private readonly maxHandles: number;
  private readonly now: () => number;

  constructor(options: HandleRegistryOptions = {}) {
    this.idleMs = options.idleMs ?? HANDLE_IDLE_MS;
    this.maxHandles = options.maxHandles ?? MAX_HANDLES;
    this.now = options.now ?? Date.now;
  }

  /** A new handle naming `path` for `owner`, with `access`. */
  issue(path: string, access: PathAccess, owner: string): string {
    if (!path) throw new Error('A handle needs a path');
    this.prune();
    const handle = `fh_${randomBytes(32).toString('base64url')}`;
    this.grants.set(handle, { path, access, owner, lastUsed: this.now() });
    while (this.grants.size > this.maxHandles) this.grants.delete(this.grants.keys().next().value!);
    return handle;
  }

  /** The path a handle names, if `owner` holds it with `access` and it has not expired; using it renews it. */
  resolve(handle: string, access: PathAccess, owner: string): Resolution {
    const grant = looksLikeHandle(handle) ? this.grants.get(handle) : undefined;
    if (!grant) return { ok: false, reason: 'unknown' };
    const now = this.now();
    if (now - grant.lastUsed > this.idleMs) {
      this.grants.delete(handle);
      return { ok: false, reason: 'expired' };
    }
    if (grant.owner !== owner) return { ok: false, reason: 'foreign' };
    if (grant.access !== access) return { ok: false, reason: 'access' };
    grant.lastUsed = now;
    this.grants.delete(handle);
    this.grants.set(handle, grant);
    return { ok: true, path: grant.path };
  }

  /** Forgets every handle of an owner (its window closed). */
  revokeOwner(owner: string): void {
    for (const [handle, grant] of this.grants) if (grant.owner === owner) this.grants.delete(handle);
  }

  get size(): number {
    return this.grants.size;
  }

  private prune(): void {
    const now = this.now();
    for (const [handle, grant] of this.grants) {
      if (now - grant.lastUsed <= this.idleMs) break; // the rest were used later
      this.grants.delete(handle);
    }
  }
}
