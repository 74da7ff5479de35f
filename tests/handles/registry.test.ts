/**
 * The handle registry: the shells record the paths the admin chose or dropped and give the page opaque handles;
 * a handle names its path only for the owner it was given to, with its access, until it has gone unused too long.
 */
import { describe, expect, it } from 'vitest';
import { HANDLE_IDLE_MS, HandleRegistry, looksLikeHandle } from '../../src/main/handles';

function clocked(options: { maxHandles?: number } = {}) {
  let now = 1_000_000;
  const registry = new HandleRegistry({ now: () => now, ...options });
  return { registry, advance: (ms: number) => (now += ms) };
}

describe('HandleRegistry', () => {
  it('issues unguessable handles that name the path for their owner and access', () => {
    const { registry } = clocked();
    const a = registry.issue('/home/admin/Course notes', 'read', 'window:1');
    const b = registry.issue('/home/admin/Course notes', 'read', 'window:1');
    expect(a).not.toBe(b);
    expect(looksLikeHandle(a)).toBe(true);
    // 32 random bytes: nothing of the path shows in the handle.
    expect(a).toMatch(/^fh_[A-Za-z0-9_-]{43}$/);
    expect(a).not.toContain('Course');
    expect(registry.resolve(a, 'read', 'window:1')).toEqual({ ok: true, path: '/home/admin/Course notes' });
  });

  it('refuses paths, made-up handles and handles it never issued', () => {
    const { registry } = clocked();
    registry.issue('/srv/a.csv', 'read', 'page');
    expect(registry.resolve('/srv/a.csv', 'read', 'page')).toEqual({ ok: false, reason: 'unknown' });
    expect(registry.resolve(`fh_${'A'.repeat(43)}`, 'read', 'page')).toEqual({ ok: false, reason: 'unknown' });
    expect(registry.resolve('', 'read', 'page')).toEqual({ ok: false, reason: 'unknown' });
    const other = new HandleRegistry().issue('/srv/a.csv', 'read', 'page');
    expect(registry.resolve(other, 'read', 'page')).toEqual({ ok: false, reason: 'unknown' });
  });

  it("refuses another window's handle, and a read handle where the engine would write", () => {
    const { registry } = clocked();
    const read = registry.issue('/home/admin/notes', 'read', 'window:1');
    expect(registry.resolve(read, 'read', 'window:2')).toEqual({ ok: false, reason: 'foreign' });
    expect(registry.resolve(read, 'write', 'window:1')).toEqual({ ok: false, reason: 'access' });
    const write = registry.issue('/home/admin/Reports', 'write', 'window:1');
    expect(registry.resolve(write, 'read', 'window:1')).toEqual({ ok: false, reason: 'access' });
    expect(registry.resolve(write, 'write', 'window:1')).toEqual({ ok: true, path: '/home/admin/Reports' });
  });

  it('expires a handle left unused, and each use renews it', () => {
    const { registry, advance } = clocked();
    const kept = registry.issue('/a', 'read', 'page');
    const left = registry.issue('/b', 'read', 'page');
    advance(HANDLE_IDLE_MS - 1000);
    expect(registry.resolve(kept, 'read', 'page').ok).toBe(true);
    advance(2000);
    expect(registry.resolve(left, 'read', 'page')).toEqual({ ok: false, reason: 'expired' });
    expect(registry.resolve(left, 'read', 'page')).toEqual({ ok: false, reason: 'unknown' });
    expect(registry.resolve(kept, 'read', 'page')).toEqual({ ok: true, path: '/a' });
    advance(HANDLE_IDLE_MS + 1);
    expect(registry.resolve(kept, 'read', 'page')).toEqual({ ok: false, reason: 'expired' });
  });

  it('forgets expired handles as new ones are issued, and keeps at most its maximum', () => {
    const { registry, advance } = clocked({ maxHandles: 3 });
    const first = registry.issue('/1', 'read', 'page');
    registry.issue('/2', 'read', 'page');
    advance(HANDLE_IDLE_MS + 1);
    registry.issue('/3', 'read', 'page');
    expect(registry.size).toBe(1);
    const used = registry.issue('/4', 'read', 'page');
    const oldest = registry.issue('/5', 'read', 'page');
    expect(registry.resolve(used, 'read', 'page').ok).toBe(true);
    registry.issue('/6', 'read', 'page');
    registry.issue('/7', 'read', 'page');
    expect(registry.size).toBe(3);
    // The least recently used went first; the one just used stayed.
    expect(registry.resolve(oldest, 'read', 'page')).toEqual({ ok: false, reason: 'unknown' });
    expect(registry.resolve(used, 'read', 'page')).toEqual({ ok: true, path: '/4' });
    expect(registry.resolve(first, 'read', 'page').ok).toBe(false);
  });

  it("revokes a closed window's handles only", () => {
    const { registry } = clocked();
    const mine = registry.issue('/a', 'read', 'window:1');
    const theirs = registry.issue('/b', 'read', 'window:2');
    registry.revokeOwner('window:1');
    expect(registry.resolve(mine, 'read', 'window:1')).toEqual({ ok: false, reason: 'unknown' });
    expect(registry.resolve(theirs, 'read', 'window:2')).toEqual({ ok: true, path: '/b' });
  });
});
