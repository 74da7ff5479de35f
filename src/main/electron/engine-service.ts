/**
 * The engine side of the utility process: answers calls from the main process and forwards engine events.
 * Written against a minimal port so tests can drive it without Electron.
 */
import type { BridgeResult } from '../../shared/contract';
import type { Engine } from '../engine/types';
import { internalError, isToEngine, type FromEngine } from './engine-protocol';

/** The part of Electron's `process.parentPort` this needs. */
export interface ParentPortLike {
  on(event: 'message', listener: (messageEvent: { data: unknown }) => void): unknown;
  postMessage(message: FromEngine): void;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function serveEngine(port: ParentPortLike, engineReady: Promise<Engine>, exit: (code: number) => void): void {
  let closing = false;

  const startFailure = engineReady.then(
    (engine) => {
      engine.onEvent((name, payload) => port.postMessage({ kind: 'event', name, payload }));
      return undefined;
    },
    (error: unknown) => {
      const message = `The engine could not start: ${messageOf(error)}`;
      console.error(message);
      port.postMessage({ kind: 'fatal', message });
      return message;
    },
  );

  const answer = async (name: string, input: unknown): Promise<BridgeResult> => {
    const failure = await startFailure;
    if (failure) return internalError(failure);
    if (closing) return internalError('Mentor Admin is closing');
    try {
      return await (await engineReady).call(name, input);
    } catch (error) {
      // Engine.call promises never to throw; if it does anyway, the caller still gets an answer.
      return internalError(messageOf(error));
    }
  };

  const reply = (id: number, result: BridgeResult): void => {
    try {
      port.postMessage({ kind: 'result', id, result });
    } catch (error) {
      // A value that cannot be structured-cloned must not leave the caller waiting forever.
      port.postMessage({
        kind: 'result',
        id,
        result: internalError(`The answer could not be sent: ${messageOf(error)}`),
      });
    }
  };

  port.on('message', ({ data }) => {
    if (!isToEngine(data)) return;
    if (data.kind === 'close') {
      closing = true;
      void engineReady
        .then((engine) => engine.close())
        .catch((error: unknown) => console.error('Closing the engine failed:', messageOf(error)))
        .finally(() => exit(0));
      return;
    }
    void answer(data.name, data.input).then((result) => reply(data.id, result));
  });
}
