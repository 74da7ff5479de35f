import type { BridgeError, ErrorCode } from '../../shared/contract';

/** An error the engine raises on purpose; its message is meant for the person using the app. */
export class EngineError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Pick<BridgeError, 'issues' | 'status'> = {},
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

export const notFound = (what: string) => new EngineError('not_found', what);
export const conflict = (what: string) => new EngineError('conflict', what);
export const invalid = (path: string, message: string) =>
  new EngineError('validation', message, { issues: [{ path, message }] });
