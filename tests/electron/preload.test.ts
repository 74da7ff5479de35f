/**
 * The preload, loaded against a stubbed `electron` module (the real binary cannot run here): it must expose
 * exactly one function per contract call, each bound to its own channel, and nothing that reaches raw IPC.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { callNames, type CallName } from '../../src/shared/contract';
import {
  IPC_CHOOSE_PATHS_CHANNEL,
  IPC_EVENT_CHANNEL,
  IPC_GRANT_FILES_CHANNEL,
  ipcChannelFor,
  type PreloadApi,
} from '../../src/shared/transport';

const electron = vi.hoisted(() => {
  type Listener = (event: unknown, ...args: unknown[]) => void;
  const listeners = new Map<string, Set<Listener>>();
  return {
    exposed: new Map<string, unknown>(),
    listeners,
    contextBridge: { exposeInMainWorld: (key: string, value: unknown) => electron.exposed.set(key, value) },
    ipcRenderer: {
      invoke: vi.fn(async (channel: string, input: unknown) => ({ ok: true, value: { channel, input } })),
      on: (channel: string, listener: Listener) => {
        if (!listeners.has(channel)) listeners.set(channel, new Set());
        listeners.get(channel)!.add(listener);
      },
      removeListener: (channel: string, listener: Listener) => listeners.get(channel)?.delete(listener),
    },
    webUtils: {
      // A path only for a File backed by a real file (Electron answers '' for one the page built itself).
      getPathForFile: vi.fn((file: { real?: string }) => file.real ?? ''),
    },
    emit: (channel: string, ...args: unknown[]) => listeners.get(channel)?.forEach((l) => l({}, ...args)),
  };
});

vi.mock('electron', () => ({
  contextBridge: electron.contextBridge,
  ipcRenderer: electron.ipcRenderer,
  webUtils: electron.webUtils,
}));

let api: PreloadApi;

beforeAll(async () => {
  await import('../../src/preload/index');
  api = electron.exposed.get('api') as PreloadApi;
});

beforeEach(() => {
  electron.ipcRenderer.invoke.mockClear();
});

describe('preload', () => {
  it('exposes only `api`, with calls, onEvent, grantFiles and choosePaths: no way to learn a path', () => {
    expect([...electron.exposed.keys()]).toEqual(['api']);
    expect(Object.keys(api).sort()).toEqual(['calls', 'choosePaths', 'grantFiles', 'onEvent']);
  });

  it('exposes exactly one function per contract call', () => {
    expect(Object.keys(api.calls).sort()).toEqual([...callNames].sort());
    for (const name of callNames) expect(typeof api.calls[name]).toBe('function');
  });

  it.each(callNames)('binds %s to its own channel and passes the input through', async (name: CallName) => {
    const input = { marker: name };
    const call = api.calls[name] as (input: unknown) => Promise<unknown>;
    await expect(call(input)).resolves.toEqual({ ok: true, value: { channel: ipcChannelFor(name), input } });
    expect(electron.ipcRenderer.invoke).toHaveBeenCalledExactlyOnceWith(ipcChannelFor(name), input);
  });

  it('turns a failed invoke into a contract error instead of a rejection', async () => {
    electron.ipcRenderer.invoke.mockRejectedValueOnce(new Error('An object could not be cloned.'));
    await expect(api.calls['app.info'](undefined)).resolves.toEqual({
      ok: false,
      error: { code: 'internal', message: 'An object could not be cloned.' },
    });
  });

  it('delivers contract events only, and unsubscribes', () => {
    const seen: unknown[] = [];
    const off = api.onEvent((name, payload) => seen.push([name, payload]));
    electron.emit(IPC_EVENT_CHANNEL, 'settings.changed', { theme: 'dark' });
    electron.emit(IPC_EVENT_CHANNEL, 'not.an.event', { x: 1 });
    electron.emit(IPC_EVENT_CHANNEL, { name: 'settings.changed' }, {});
    expect(seen).toEqual([['settings.changed', { theme: 'dark' }]]);
    off();
    electron.emit(IPC_EVENT_CHANNEL, 'settings.changed', { theme: 'light' });
    expect(seen).toHaveLength(1);
    expect(electron.listeners.get(IPC_EVENT_CHANNEL)?.size ?? 0).toBe(0);
  });

  it("sends dropped files' real paths to the main process and gives the page only its answer (handles)", async () => {
    const granted = [{ handle: `fh_${'a'.repeat(43)}`, name: 'handbook.pdf', path: '/home/admin/docs/handbook.pdf' }];
    electron.ipcRenderer.invoke.mockResolvedValueOnce(granted as never);
    const real = { real: '/home/admin/docs/handbook.pdf' } as unknown as File;
    const made = {} as File;
    await expect(api.grantFiles([real, made])).resolves.toEqual(granted);
    expect(electron.ipcRenderer.invoke).toHaveBeenCalledExactlyOnceWith(IPC_GRANT_FILES_CHANNEL, [
      '/home/admin/docs/handbook.pdf',
    ]);
    // Files the page made itself name nothing: the main process is not even asked.
    electron.ipcRenderer.invoke.mockClear();
    await expect(api.grantFiles([made])).resolves.toEqual([]);
    expect(electron.ipcRenderer.invoke).not.toHaveBeenCalled();
  });

  it('asks the main process for a dialog by purpose, and refuses an answer that is not handles', async () => {
    electron.ipcRenderer.invoke.mockResolvedValueOnce([] as never);
    await expect(api.choosePaths('export-folder')).resolves.toEqual([]);
    expect(electron.ipcRenderer.invoke).toHaveBeenCalledExactlyOnceWith(IPC_CHOOSE_PATHS_CHANNEL, 'export-folder');
    electron.ipcRenderer.invoke.mockResolvedValueOnce(['/home/admin'] as never);
    await expect(api.choosePaths('train-folder')).rejects.toThrow();
  });

  it('never hands the page raw IPC', () => {
    const source = readFileSync(new URL('../../src/preload/index.ts', import.meta.url), 'utf8');
    const exposed = JSON.stringify(Object.keys(api)) + Object.values(api.calls).map(String).join('\n');
    expect(exposed).not.toMatch(/send|sendSync|postMessage/);
    expect(source).not.toMatch(/exposeInMainWorld\([^)]*ipcRenderer/);
    expect(source.match(/exposeInMainWorld/g)).toHaveLength(1);
    // Every invoke goes to a channel computed from a contract name or a fixed one, never one supplied by the page.
    const channels = [...source.matchAll(/ipcRenderer\.invoke\(([^,]+),/g)].map((match) => match[1]).sort();
    expect(channels).toEqual(['IPC_CHOOSE_PATHS_CHANNEL', 'IPC_GRANT_FILES_CHANNEL', 'channel']);
    expect(source).toContain('const channel = ipcChannelFor(name);');
  });
});
