/** The main-process client and the utility-process service, wired to each other through fake ports. */
import { describe, expect, it, vi } from 'vitest';
import type { BridgeResult, EventName, EventPayload } from '../../src/shared/contract';
import type { Engine, EngineEventListener } from '../../src/main/engine/types';
import { EngineClient, type EngineProcess } from '../../src/main/electron/engine-client';
import {
  engineOptionsArg,
  engineOptionsFromArgv,
  isFromEngine,
  isToEngine,
  type FromEngine,
  type ToEngine,
} from '../../src/main/electron/engine-protocol';
import { serveEngine } from '../../src/main/electron/engine-service';

function fakeEngine() {
  const listeners = new Set<EngineEventListener>();
  const engine = {
    call: vi.fn(async (name: unknown, input: unknown): Promise<BridgeResult> => ({ ok: true, value: { name, input } })),
    invoke: vi.fn(),
    onEvent: (listener: EngineEventListener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: vi.fn(async () => undefined),
  };
  const emit = <E extends EventName>(name: E, payload: EventPayload<E>) => listeners.forEach((l) => l(name, payload));
  return { engine: engine as unknown as Engine & typeof engine, emit };
}

/** An in-memory utility process: messages cross asynchronously, as they do between processes. */
function connectedProcess(engineReady: Promise<Engine>) {
  const toMain = new Set<(message: unknown) => void>();
  const toEngine = new Set<(event: { data: unknown }) => void>();
  const exitListeners = new Set<(code: number) => void>();
  const exit = (code: number) => queueMicrotask(() => exitListeners.forEach((l) => l(code)));
  serveEngine(
    {
      on: (_event, listener) => toEngine.add(listener),
      postMessage: (message: FromEngine) => queueMicrotask(() => toMain.forEach((l) => l(structuredClone(message)))),
    },
    engineReady,
    exit,
  );
  const process: EngineProcess & { crash(code: number): void } = {
    postMessage: (message: ToEngine) =>
      queueMicrotask(() => toEngine.forEach((l) => l({ data: structuredClone(message) }))),
    onMessage: (listener) => toMain.add(listener),
    onExit: (listener) => exitListeners.add(listener),
    kill: vi.fn(() => exit(9)),
    crash: (code) => exit(code),
  };
  return process;
}

describe('engine protocol', () => {
  it('round-trips the engine options through argv', () => {
    const options = { dataDir: '/home/u/.config/Mentor Admin', nativeBinding: '/n/b.node' };
    expect(engineOptionsFromArgv(['/electron', '--type=utility', engineOptionsArg(options)])).toEqual(options);
    // Only the data folder and the native build travel: the engine process is always the app's ('electron' preset).
    const extra = engineOptionsArg({ ...options, shell: 'cli' } as typeof options);
    expect(engineOptionsFromArgv([extra])).toEqual(options);
  });

  it('refuses to start without options or a data folder', () => {
    expect(() => engineOptionsFromArgv(['/electron'])).toThrow(/options/);
    expect(() => engineOptionsFromArgv([engineOptionsArg({ dataDir: '' })])).toThrow(/data folder/);
  });

  it('recognises only well-formed messages', () => {
    expect(isToEngine({ kind: 'call', id: 1, name: 'app.info', input: undefined })).toBe(true);
    expect(isToEngine({ kind: 'close' })).toBe(true);
    expect(isToEngine({ kind: 'call', id: 'x', name: 'app.info' })).toBe(false);
    expect(isToEngine(null)).toBe(false);
    expect(isFromEngine({ kind: 'result', id: 1, result: { ok: true, value: 1 } })).toBe(true);
    expect(isFromEngine({ kind: 'result', id: 1, result: 'nope' })).toBe(false);
    expect(isFromEngine({ kind: 'event', name: 'settings.changed', payload: {} })).toBe(true);
    expect(isFromEngine({ kind: 'other' })).toBe(false);
  });
});

describe('EngineClient + serveEngine', () => {
  it('answers each call with the engine result for that call', async () => {
    const { engine } = fakeEngine();
    const client = new EngineClient(() => connectedProcess(Promise.resolve(engine)));
    const [a, b] = await Promise.all([client.call('app.info', undefined), client.call('profiles.get', { id: 'p' })]);
    expect(a).toEqual({ ok: true, value: { name: 'app.info', input: undefined } });
    expect(b).toEqual({ ok: true, value: { name: 'profiles.get', input: { id: 'p' } } });
  });

  it('queues calls that arrive while the engine is still starting', async () => {
    const { engine } = fakeEngine();
    let ready!: (engine: Engine) => void;
    const client = new EngineClient(() => connectedProcess(new Promise((resolve) => (ready = resolve))));
    const answer = client.call('app.info', undefined);
    ready(engine);
    await expect(answer).resolves.toMatchObject({ ok: true });
  });

  it('forwards engine events, and only contract events', async () => {
    const { engine, emit } = fakeEngine();
    const client = new EngineClient(() => connectedProcess(Promise.resolve(engine)));
    const seen: unknown[] = [];
    client.onEvent((name, payload) => seen.push([name, payload]));
    await client.call('app.info', undefined); // the engine is up
    const settings = {
      theme: 'dark',
      notifyNewTickets: true,
      notifyJobEnds: true,
      navigation: 'auto',
      formatLocale: 'system',
      jobWaitLimitMinutes: 60,
    } as const;
    emit('settings.changed', settings);
    emit('no.such.event' as EventName, {} as never);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual([['settings.changed', settings]]);
  });

  it('answers every call with an internal error when the engine cannot start', async () => {
    const client = new EngineClient(() => connectedProcess(Promise.reject(new Error('database is newer'))));
    const result = await client.call('app.info', undefined);
    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(!result.ok && result.error.message).toContain('database is newer');
  });

  it('answers calls in flight when the process dies, then starts a new one', async () => {
    const { engine } = fakeEngine();
    engine.call.mockImplementationOnce(() => new Promise(() => undefined)); // never answers
    const processes: ReturnType<typeof connectedProcess>[] = [];
    const client = new EngineClient(() => {
      const process = connectedProcess(Promise.resolve(engine));
      processes.push(process);
      return process;
    });
    const hanging = client.call('app.info', undefined);
    await new Promise((resolve) => setTimeout(resolve, 0));
    processes[0]!.crash(3);
    await expect(hanging).resolves.toMatchObject({ ok: false, error: { code: 'internal' } });
    await expect(client.call('app.info', undefined)).resolves.toMatchObject({ ok: true });
    expect(processes).toHaveLength(2);
  });

  it('gives up after too many restarts in a short time', async () => {
    let now = 0;
    let spawned = 0;
    const client = new EngineClient(
      () => {
        spawned++;
        const process = connectedProcess(new Promise(() => undefined));
        queueMicrotask(() => process.crash(1));
        return process;
      },
      { maxRestarts: 2, restartWindowMs: 60_000, now: () => now },
    );
    for (let i = 0; i < 5; i++) {
      await client.call('app.info', undefined);
      now += 1000;
    }
    expect(spawned).toBe(3);
    await expect(client.call('app.info', undefined)).resolves.toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/keeps stopping/) },
    });
  });

  it('closes the engine cleanly, and refuses calls afterwards', async () => {
    const { engine } = fakeEngine();
    let process!: ReturnType<typeof connectedProcess>;
    const client = new EngineClient(() => (process = connectedProcess(Promise.resolve(engine))));
    client.start();
    await client.close(1000);
    expect(engine.close).toHaveBeenCalledOnce();
    expect(process.kill).not.toHaveBeenCalled();
    await expect(client.call('app.info', undefined)).resolves.toMatchObject({ ok: false });
  });

  it('kills an engine that does not close in time', async () => {
    const { engine } = fakeEngine();
    engine.close.mockImplementation(() => new Promise(() => undefined));
    let process!: ReturnType<typeof connectedProcess>;
    const client = new EngineClient(() => (process = connectedProcess(Promise.resolve(engine))));
    client.start();
    await client.close(20);
    expect(process.kill).toHaveBeenCalledOnce();
  });
});
