import { BridgeCallError, type BridgeError } from '../../shared/contract';

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

type Issues = NonNullable<BridgeError['issues']>;

/**
 * A failed save as a form shows it: validation issues under the fields `split` names, the other issues (or any
 * other error) as one message for the whole form, `null` when there is none.
 */
export function saveErrors<Fields extends object>(
  error: unknown,
  split: (issues: Issues) => { fields: Fields; other: string[] },
): { fields: Partial<Fields>; form: string | null } {
  if (error instanceof BridgeCallError && error.code === 'validation' && error.issues?.length) {
    const { fields, other } = split(error.issues);
    return { fields, form: other.length ? other.join('\n') : null };
  }
  return { fields: {}, form: errorMessage(error) };
}
