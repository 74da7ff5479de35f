import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { callNames, type BridgeResult } from '../../src/shared/contract';
import { ipcChannelFor } from '../../src/shared/transport';
import { REFUSED_SENDER, registerContractHandlers } from '../../src/main/electron/ipc-bridge';

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

function eventFrom(frame: { url: string; parent: unknown } | null): IpcMainInvokeEvent {
  return { senderFrame: frame } as unknown as IpcMainInvokeEvent;
}

function setup() {
  const { ipc, handlers } = fakeIpc();
  const ok: BridgeResult = { ok: true, value: 'answer' };
  const target = { call: vi.fn(async () => ok) };
  const unregister = registerContractHandlers(ipc, target, ENTRY);
  const invoke = (channel: string, frame: { url: string; parent: unknown } | null, input?: unknown) =>
    handlers.get(channel)!(eventFrom(frame), input) as Promise<BridgeResult>;
  return { handlers, target, unregister, invoke, ok };
}

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

  it('refusals use the contract error envelope', () => {
    expect(REFUSED_SENDER).toMatchObject({ ok: false, error: { code: 'validation' } });
  });

  it('removes every handler it registered', () => {
    const { handlers, unregister } = setup();
    unregister();
    expect(handlers.size).toBe(0);
  });
});
