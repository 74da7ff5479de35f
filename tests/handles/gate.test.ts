/**
 * The gate at the page's bridge boundary: the contract declares which input fields hold local paths, and calls from
 * the app's page must fill them with handles, which become paths before the engine sees the call.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { callNames, calls, type PathAccess } from '../../src/shared/contract';
import { gatePagePaths, HandleRegistry } from '../../src/main/handles';

/** Field names that say "a place on disk": `path`, `folder`, `exportDir`, `sourceFiles`… but not `profile`. */
const PATH_LIKE =
  /^(path|paths|folder|folders|file|files|dir|dirs|directory)$|[a-z0-9](Path|Paths|Folder|Folders|File|Files|Dir|Dirs|Directory)$/;

/** Every field name in an input schema, dotted from the top, through unions, optionals, defaults and arrays. */
function fieldsOf(schema: z.ZodType, prefix = ''): string[] {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>;
      return Object.entries(shape).flatMap(([key, value]) => [prefix + key, ...fieldsOf(value, `${prefix}${key}.`)]);
    }
    case 'union':
      return (def.options as z.ZodType[]).flatMap((option) => fieldsOf(option, prefix));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
      return fieldsOf(def.innerType as z.ZodType, prefix);
    case 'pipe':
      return fieldsOf(def.in as z.ZodType, prefix);
    case 'array':
      return fieldsOf(def.element as z.ZodType, prefix);
    default:
      return [];
  }
}

const declared = (name: (typeof callNames)[number]) =>
  (calls[name] as { localPaths?: Record<string, PathAccess> }).localPaths ?? {};

describe('the contract declares every local path its calls take', () => {
  it('finds path fields through unions, optionals and arrays (the walk itself)', () => {
    expect(fieldsOf(calls['invitations.importOpen'].input)).toEqual(
      expect.arrayContaining(['path', 'name', 'text', 'profileId']),
    );
    expect(fieldsOf(calls['train.preview'].input)).toContain('paths');
    expect(PATH_LIKE.test('profile')).toBe(false);
    expect(PATH_LIKE.test('maxFileBytes')).toBe(false);
    expect(PATH_LIKE.test('exportFolder')).toBe(true);
  });

  it.each(callNames)('%s: each path-like input field is declared, at the top level', (name) => {
    const pathLike = fieldsOf(calls[name].input).filter((field) => PATH_LIKE.test(field.split('.').pop()!));
    // A nested one could not be declared: the gate translates top-level fields only.
    expect(pathLike.filter((field) => field.includes('.'))).toEqual([]);
    expect(Object.keys(declared(name)).sort()).toEqual([...new Set(pathLike)].sort());
  });

  it('names what the engine reads and what it writes', () => {
    const all = Object.fromEntries(
      callNames.map((name) => [name, declared(name)] as const).filter(([, d]) => Object.keys(d).length),
    );
    expect(all).toEqual({
      'jobs.exportReport': { path: 'write' },
      'train.preview': { paths: 'read' },
      'invitations.importOpen': { path: 'read' },
      'resources.import': { path: 'read' },
      'analytics.exportStart': { path: 'write', folder: 'write' },
      'analytics.scheduleSave': { folder: 'write' },
      // A voice's samples and an audio file to transcribe: read from where the admin chose them.
      'audio.inspect': { paths: 'read' },
      'audio.transcribe': { path: 'read' },
      'voices.addElevenlabs': { paths: 'read' },
      // A CSV of people to give a badge; the zip of everything about a person, where the admin saves it.
      'badges.import': { path: 'read' },
      'person.export': { path: 'write' },
      // A session exported as CSV, where the admin saves it.
      'sessions.export': { path: 'write' },
    });
  });
});

describe('gatePagePaths', () => {
  const registry = new HandleRegistry();
  const resolveFor = (owner: string) => (handle: string, access: PathAccess) => registry.resolve(handle, access, owner);

  it('turns handles into the paths they name, leaving every other field as it was', () => {
    const a = registry.issue('/home/admin/Course notes', 'read', 'window:1');
    const b = registry.issue('/home/admin/syllabus.pdf', 'read', 'window:1');
    const input = { mentor: 'm1', paths: [a, b], include: ['*.md'] };
    expect(gatePagePaths('train.preview', input, resolveFor('window:1'))).toEqual({
      ok: true,
      input: { mentor: 'm1', paths: ['/home/admin/Course notes', '/home/admin/syllabus.pdf'], include: ['*.md'] },
    });
    // The caller's object is not changed.
    expect(input.paths).toEqual([a, b]);
    const folder = registry.issue('/home/admin/Reports', 'write', 'window:1');
    expect(gatePagePaths('analytics.exportStart', { dataset: 'users', folder }, resolveFor('window:1'))).toEqual({
      ok: true,
      input: { dataset: 'users', folder: '/home/admin/Reports' },
    });
  });

  it.each([
    ['a raw path', 'invitations.importOpen', { path: '/etc/passwd' }, 'path', 'not by its path'],
    [
      'a path among handles',
      'train.preview',
      { mentor: 'm', paths: ['HANDLE', '/home/admin/.ssh'] },
      'paths.1',
      'not by its path',
    ],
    [
      'a path where the engine writes',
      'analytics.exportStart',
      { dataset: 'users', folder: '/etc' },
      'folder',
      'not by its path',
    ],
    ['a report path', 'jobs.exportReport', { id: 'j1', path: '/home/admin/.bashrc' }, 'path', 'not by its path'],
    ['a schedule folder', 'analytics.scheduleSave', { folder: '/tmp' }, 'folder', 'not by its path'],
    ['a number', 'invitations.importOpen', { path: 42 }, 'path', 'not by its path'],
    ['an object', 'train.preview', { mentor: 'm', paths: [{ path: '/' }] }, 'paths.0', 'not by its path'],
    [
      'a read handle as an export folder',
      'analytics.exportStart',
      { dataset: 'users', folder: 'HANDLE' },
      'folder',
      'not as a place to write',
    ],
    [
      "another window's handle",
      'invitations.importOpen',
      { path: 'FOREIGN' },
      'path',
      'not one Mentor Admin handed this window',
    ],
  ])('refuses %s, naming the field', (_label, name, input, field, words) => {
    const handle = registry.issue('/home/admin/notes', 'read', 'window:1');
    const foreign = registry.issue('/home/other/notes.csv', 'read', 'window:2');
    const withHandles = JSON.parse(
      JSON.stringify(input)
        .replaceAll('"HANDLE"', JSON.stringify(handle))
        .replaceAll('"FOREIGN"', JSON.stringify(foreign)),
    );
    const gated = gatePagePaths(name, withHandles, resolveFor('window:1'));
    expect(gated.ok).toBe(false);
    if (gated.ok) return;
    expect(gated.result).toMatchObject({ ok: false, error: { code: 'validation', issues: [{ path: field }] } });
    expect(!gated.result.ok && gated.result.error.message).toContain(words);
  });

  it('passes calls without path fields, absent optional ones, and unknown calls to the contract as they are', () => {
    const resolve = resolveFor('window:1');
    const info = {};
    expect(gatePagePaths('app.info', info, resolve)).toEqual({ ok: true, input: info });
    const report = { id: 'j1' };
    expect(gatePagePaths('jobs.exportReport', report, resolve)).toEqual({ ok: true, input: report });
    expect(gatePagePaths('nope', { path: '/etc' }, resolve)).toEqual({ ok: true, input: { path: '/etc' } });
    expect(gatePagePaths('train.preview', 'not an object', resolve)).toEqual({ ok: true, input: 'not an object' });
  });
});
