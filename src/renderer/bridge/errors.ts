import { BridgeCallError } from '../../shared/contract';

export const CONNECTION_LOST_MESSAGE =
  'Connection to Mentor Admin lost. It reconnects on its own; try again in a moment.';

/** A call that could not finish because the WebSocket to the host dropped (browser mode only). */
export class ConnectionLostError extends BridgeCallError {
  constructor() {
    super({ code: 'unreachable', message: CONNECTION_LOST_MESSAGE });
    this.name = 'ConnectionLostError';
  }
}

/** Any thrown value as a sentence for the UI. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'Something went wrong';
}
