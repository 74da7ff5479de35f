import { BridgeCallError, type CallInput, type CallName, type CallOutput } from '../../shared/contract';
import { BRIDGE_PATH, SESSION_PATH, TOKEN_PARAM, WireMessage, type WireRequest } from '../../shared/transport';
import { ConnectionLostError } from './errors';
import { ListenerSet } from './listeners';
import { checkInput, parseEvent, parseOutput } from './parse';
import { downloadExport, hostStaging } from './hostFiles';
import type { Bridge, BridgeEvent, ConnectionState, HostCapabilities } from './types';

interface PendingCall {
  name: CallName;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 10_000;

/** Exponential backoff with jitter, so many tabs do not hammer a restarting host in lockstep. */
export function reconnectDelay(attempt: number): number {
  const ceiling = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/**
 * The printed address (`http://127.0.0.1:5179/?token=…`) has already been exchanged for the session cookie when the
 * page runs (the host did it as it served the page): the token leaves the address bar and the history entry at once,
 * the route in the hash stays.
 */
export function forgetTokenInAddress(location: Location, history: History): void {
  const url = new URL(location.href);
  if (!url.searchParams.has(TOKEN_PARAM)) return;
  url.searchParams.delete(TOKEN_PARAM);
  history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

/** Whether the page holds this run's session cookie (HttpOnly, so only the host can tell). */
export async function hasBrowserSession(): Promise<boolean> {
  try {
    return (await fetch(SESSION_PATH, { cache: 'no-store', credentials: 'same-origin' })).status === 204;
  } catch {
    return false;
  }
}

/** The bridge's WebSocket: the session cookie goes with it, nothing secret in the URL. */
export function bridgeSocketUrl(location: Location): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}${BRIDGE_PATH}`;
}

/**
 * Browser mode: the contract over one WebSocket to the local host. Calls made before the first connection wait
 * for it; calls in flight when the socket drops are rejected (the engine may or may not have run them), and the
 * socket comes back on its own with backoff.
 */
export class WebSocketBridge implements Bridge {
  /** A page in a browser: it notifies by itself, and files travel as copies and downloads over the host's HTTP. */
  readonly capabilities: HostCapabilities = {
    notifications: false,
    revealFile: false,
    staging: hostStaging,
    downloadFile: downloadExport,
  };
  private socket: WebSocket | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, PendingCall>();
  /** Requests made while the first connection is still being opened. */
  private readonly unsent: WireRequest[] = [];
  private state: ConnectionState = { status: 'connecting' };
  private failedAttempts = 0;
  private readonly events = new ListenerSet<BridgeEvent>();
  private readonly connectionListeners = new ListenerSet<ConnectionState>();

  constructor(private readonly url: string) {
    this.connect();
  }

  call<N extends CallName>(name: N, input: CallInput<N>): Promise<CallOutput<N>> {
    return this.send(name, input) as Promise<CallOutput<N>>;
  }

  onEvent(listener: (event: BridgeEvent) => void): () => void {
    return this.events.add(listener);
  }

  getConnectionState(): ConnectionState {
    return this.state;
  }

  onConnectionChange(listener: (state: ConnectionState) => void): () => void {
    return this.connectionListeners.add(listener);
  }

  private async send(name: CallName, input: unknown): Promise<unknown> {
    checkInput(name, input);
    if (this.state.status === 'reconnecting') throw new ConnectionLostError();
    const request: WireRequest = { id: this.nextId++, name, input };
    const answer = new Promise<unknown>((resolve, reject) => this.pending.set(request.id, { name, resolve, reject }));
    if (this.state.status === 'open' && this.socket) this.socket.send(JSON.stringify(request));
    else this.unsent.push(request);
    return answer;
  }

  private connect(): void {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener('open', () => {
      this.failedAttempts = 0;
      this.setState({ status: 'open' });
      for (const request of this.unsent.splice(0)) socket.send(JSON.stringify(request));
    });
    socket.addEventListener('message', (message) => this.receive(message.data));
    // `error` is always followed by `close`; reconnecting is handled there only.
    socket.addEventListener('close', () => this.handleClose(socket));
  }

  private handleClose(socket: WebSocket): void {
    if (socket !== this.socket) return;
    this.socket = undefined;
    this.unsent.length = 0;
    for (const call of this.pending.values()) call.reject(new ConnectionLostError());
    this.pending.clear();
    const delay = reconnectDelay(this.failedAttempts);
    this.failedAttempts += 1;
    this.setState({ status: 'reconnecting', attempt: this.failedAttempts, retryAt: Date.now() + delay });
    setTimeout(() => this.connect(), delay);
  }

  private receive(data: unknown): void {
    let message: WireMessage;
    try {
      message = WireMessage.parse(JSON.parse(String(data)));
    } catch (error) {
      console.warn('Ignoring a malformed message from the host', error);
      return;
    }
    if (message.kind === 'event') {
      const event = parseEvent(message.name, message.payload);
      if (event) this.events.emit(event);
      return;
    }
    const call = this.pending.get(message.id);
    if (!call) return;
    this.pending.delete(message.id);
    if (!message.ok) {
      call.reject(new BridgeCallError(message.error));
      return;
    }
    try {
      call.resolve(parseOutput(call.name, message.value));
    } catch (error) {
      call.reject(error as Error);
    }
  }

  private setState(state: ConnectionState): void {
    this.state = state;
    this.connectionListeners.emit(state);
  }
}
