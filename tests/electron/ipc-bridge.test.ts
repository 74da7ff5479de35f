import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { callNames, type BridgeResult } from '../../src/shared/contract';
import { ipcChannelFor } from '../../src/shared/transport';
import { REFUSED_SENDER, registerContractHandlers } from '../../src/main/electron/ipc-bridge';
import { HandleRegistry } from '../../src/main/handles';

const ENTRY = 'app://renderer/index.html';
type Handler = (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown;

function fakeIpc() {
  const handlers = new Map<string, Handler>();
  const ipc = {
    handle: (channel: string, handler: Handler) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, handler);
    },
    removeHandler: (channel: string) => handlers.delete(channel),
  } as unknown as Pick<IpcMain, 'handle' | 'removeHandler'>;
  return { ipc, handlers };
}

function eventFrom(frame: { url: string; parent: unknown } | null, senderId = 1): IpcMainInvokeEvent {
  return { senderFrame: frame, sender: { id: senderId } } as unknown as IpcMainInvokeEvent;
}

function setup() {
  const { ipc, handlers } = fakeIpc();
  const ok: BridgeResult = { ok: true, value: 'answer' };
  const target = { call: vi.fn(async () => ok) };
  const registry = new HandleRegistry();
  const unregister = registerContractHandlers(ipc, target, ENTRY, registry);
  const invoke = (channel: string, frame: { url: string; parent: unknown } | null, input?: unknown, senderId = 1) =>
    handlers.get(channel)!(eventFrom(frame, senderId), input) as Promise<BridgeResult>;
  return { handlers, target, unregister, invoke, ok, registry };
}

const APP_FRAME = { url: ENTRY, parent: null };

describe('registerContractHandlers', () => {
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });

  it('registers exactly one handler per contract call, each on its own channel', () => {
    const { handlers } = setup();
    expect([...handlers.keys()].sort()).toEqual(callNames.map(ipcChannelFor).sort());
  });

  it('forwards a call from the app top frame with its own name and input', async () => {
    const { invoke, target, ok } = setup();
    const input = { id: 'p1' };
    await expect(
      invoke(ipcChannelFor('profiles.get'), { url: `${ENTRY}#/profiles`, parent: null }, input),
    ).resolves.toEqual(ok);
    expect(target.call).toHaveBeenCalledWith('profiles.get', input);
  });

  it.each([
    ['another page', { url: 'https://evil.example/', parent: null }],
    ['a local file', { url: 'file:///tmp/evil.html', parent: null }],
    ['the app loaded from file://', { url: 'file:///opt/app/out/renderer/index.html', parent: null }],
    ['an iframe inside the app', { url: ENTRY, parent: { url: ENTRY } }],
    ['a destroyed frame', null],
  ])('refuses %s without reaching the engine', async (_label, frame) => {
    const { invoke, target } = setup();
    await expect(invoke(ipcChannelFor('app.info'), frame)).resolves.toEqual(REFUSED_SENDER);
    expect(target.call).not.toHaveBeenCalled();
  });

  it('refuses a frame that throws when read (disposed)', async () => {
    const { handlers, target } = setup();
    const event = {
      get senderFrame() {
        throw new Error('Render frame was disposed');
      },
    } as unknown as IpcMainInvokeEvent;
    await expect(handlers.get(ipcChannelFor('app.info'))!(event, undefined)).resolves.toEqual(REFUSED_SENDER);
    expect(target.call).not.toHaveBeenCalled();
  });

  it('hands the engine the paths behind the handles this window was given', async () => {
    const { invoke, target, registry } = setup();
    const folder = registry.issue('/home/admin/Course notes', 'read', 'window:1');
    const input = { mentor: 'm1', paths: [folder] };
    await invoke(ipcChannelFor('train.preview'), APP_FRAME, input);
    expect(target.call).toHaveBeenCalledWith('train.preview', { mentor: 'm1', paths: ['/home/admin/Course notes'] });
  });

  it.each([
    ['a path written by the page', (_r: HandleRegistry) => '/home/admin/.ssh/id_ed25519'],
    ['a handle given to another window', (r: HandleRegistry) => r.issue('/home/admin/a.csv', 'read', 'window:2')],
    ['a read handle where the engine writes', (r: HandleRegistry) => r.issue('/home/admin', 'read', 'window:1')],
  ])('refuses %s without reaching the engine', async (_label, make) => {
    const { invoke, target, registry } = setup();
    const answer = await invoke(ipcChannelFor('analytics.exportStart'), APP_FRAME, {
      dataset: 'users',
      folder: make(registry),
    });
    expect(answer).toMatchObject({ ok: false, error: { code: 'validation', issues: [{ path: 'folder' }] } });
    expect(target.call).not.toHaveBeenCalled();
  });

  it('refusals use the contract error envelope', () => {
    expect(REFUSED_SENDER).toMatchObject({ ok: false, error: { code: 'validation' } });
  });

  it('removes every handler it registered', () => {
    const { handlers, unregister } = setup();
    unregister();
    expect(handlers.size).toBe(0);
  });
});
