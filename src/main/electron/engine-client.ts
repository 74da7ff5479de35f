/**
 * The main process's handle on the engine running in a utility process: turns calls into messages, matches the
 * answers, forwards events, and starts the process again if it dies (at most a few times a minute).
 * Written against a minimal process interface so tests can drive it without Electron.
 */
import { isEventName, type BridgeResult, type EventName } from '../../shared/contract';
import { internalError, isFromEngine, type ToEngine } from './engine-protocol';

export interface EngineProcess {
  postMessage(message: ToEngine): void;
  onMessage(listener: (message: unknown) => void): void;
  onExit(listener: (code: number) => void): void;
  kill(): void;
}

export type EngineEventForwarder = (name: EventName, payload: unknown) => void;

export interface EngineClientOptions {
  /** Restarts allowed within `restartWindowMs` before the client gives up and answers with an error. */
  maxRestarts?: number;
  restartWindowMs?: number;
  now?: () => number;
}

export class EngineClient {
  private process: EngineProcess | undefined; // undefined until started, and again after it exits
  private nextId = 1;
  private readonly pending = new Map<number, (result: BridgeResult) => void>();
  private readonly listeners = new Set<EngineEventForwarder>();
  private readonly starts: number[] = [];
  private fatal: string | undefined;
  private closed = false;
  private exited: Promise<void> | undefined;

  constructor(
    private readonly spawn: () => EngineProcess,
    private readonly options: EngineClientOptions = {},
  ) {}

  /** Starts the engine now rather than on the first call, so unfinished jobs resume at once. */
  start(): void {
    if (!this.closed) this.running();
  }

  call(name: string, input: unknown): Promise<BridgeResult> {
    if (this.closed) return Promise.resolve(internalError('Mentor Admin is closing'));
    if (this.fatal) return Promise.resolve(internalError(this.fatal));
    const child = this.running();
    if (!child) return Promise.resolve(internalError(this.fatal ?? 'The engine is not running'));
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      try {
        child.postMessage({ kind: 'call', id, name, input });
      } catch (error) {
        this.pending.delete(id);
        resolve(internalError(`The call could not be sent: ${error instanceof Error ? error.message : String(error)}`));
      }
    });
  }

  onEvent(listener: EngineEventForwarder): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Asks the engine to close its database cleanly; kills it if it has not exited after `timeoutMs`. */
  async close(timeoutMs = 5000): Promise<void> {
    this.closed = true;
    const child = this.process;
    if (!child || !this.exited) return;
    child.postMessage({ kind: 'close' });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const outcome = await Promise.race([this.exited, timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') child.kill();
  }

  private running(): EngineProcess | undefined {
    if (this.process) return this.process;
    const now = (this.options.now ?? Date.now)();
    const windowMs = this.options.restartWindowMs ?? 60_000;
    const recent = this.starts.filter((at) => now - at < windowMs);
    if (recent.length > (this.options.maxRestarts ?? 3)) {
      this.fatal = 'The engine keeps stopping; restart Mentor Admin (details are in the log)';
      return undefined;
    }
    this.starts.splice(0, this.starts.length, ...recent, now);
    const child = this.spawn();
    this.process = child;
    this.exited = new Promise((resolve) => {
      child.onExit((code) => {
        this.onExit(child, code);
        resolve();
      });
    });
    child.onMessage((message) => this.onMessage(message));
    return child;
  }

  private onMessage(message: unknown): void {
    if (!isFromEngine(message)) return;
    switch (message.kind) {
      case 'result': {
        const resolve = this.pending.get(message.id);
        this.pending.delete(message.id);
        resolve?.(message.result);
        return;
      }
      case 'event':
        if (!isEventName(message.name)) return;
        for (const listener of this.listeners) listener(message.name, message.payload);
        return;
      case 'fatal':
        // Keep the process: it answers every call with this error, which the UI can show.
        console.error(message.message);
        return;
    }
  }

  private onExit(child: EngineProcess, code: number): void {
    if (this.process !== child) return;
    this.process = undefined;
    if (!this.closed) console.error(`The engine process exited with code ${code}; it starts again on the next call.`);
    const stopped = internalError(`The engine stopped (exit code ${code}); try again.`);
    for (const resolve of this.pending.values()) resolve(stopped);
    this.pending.clear();
  }
}
