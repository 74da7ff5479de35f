import { ZodError } from 'zod';
import {
  calls,
  isCallName,
  issuesFromZod,
  describeIssues,
  type BridgeError,
  type BridgeResult,
  type CallName,
  type CallOutput,
  type Calls,
} from '../../shared/contract';
import type { z } from 'zod';
import { EngineError } from './errors';
import type { Log } from './log';

export type Handlers = {
  [N in CallName]: (input: z.output<Calls[N]['input']>) => Promise<CallOutput<N>> | CallOutput<N>;
};

/** The handlers of one area's calls (an area module exports its part; the engine joins them into `Handlers`). */
export type HandlersOf<C extends Record<string, { input: z.ZodType; output: z.ZodType }>> = {
  [N in keyof C]: (input: z.output<C[N]['input']>) => Promise<z.output<C[N]['output']>> | z.output<C[N]['output']>;
};

/**
 * The untrusted edge of the engine: checks the call name, parses the input, runs the handler and parses its
 * output. A malformed call changes nothing and answers a typed validation error; nothing here throws.
 */
export async function dispatch(handlers: Handlers, name: unknown, input: unknown, log: Log): Promise<BridgeResult> {
  if (!isCallName(name)) {
    return { ok: false, error: { code: 'validation', message: `Unknown call '${String(name).slice(0, 80)}'` } };
  }
  const spec = calls[name];
  const parsedInput = spec.input.safeParse(input);
  if (!parsedInput.success) {
    const issues = issuesFromZod(parsedInput.error);
    return {
      ok: false,
      error: { code: 'validation', message: `Invalid input for ${name}: ${describeIssues(issues)}`, issues },
    };
  }
  try {
    const handler = handlers[name] as (input: unknown) => unknown;
    const output = await handler(parsedInput.data);
    const parsedOutput = spec.output.safeParse(output);
    if (!parsedOutput.success) {
      log(`contract violation in ${name} output: ${describeIssues(issuesFromZod(parsedOutput.error))}`);
      return { ok: false, error: { code: 'internal', message: `The engine produced an invalid answer for ${name}` } };
    }
    return { ok: true, value: parsedOutput.data };
  } catch (error) {
    const bridgeError = toBridgeError(error);
    if (bridgeError.code === 'internal') log(`${name} failed: ${error instanceof Error ? error.stack : String(error)}`);
    return { ok: false, error: bridgeError };
  }
}

/** Maps whatever a handler threw to the wire error; unknown failures become 'internal' with their message. */
export function toBridgeError(error: unknown): BridgeError {
  if (error instanceof EngineError) return { code: error.code, message: error.message, ...error.extra };
  if (error instanceof ZodError) {
    const issues = issuesFromZod(error);
    return { code: 'validation', message: describeIssues(issues), issues };
  }
  if (error instanceof Error) {
    switch (error.name) {
      case 'KeychainUnavailableError':
        return { code: 'keychain', message: error.message };
      case 'InsecureAddressError':
        return { code: 'validation', message: error.message };
      case 'ApiError': {
        const status = (error as Error & { status?: number }).status;
        return { code: 'api', message: error.message, ...(status ? { status } : {}) };
      }
      case 'RequestAbortedError':
        return { code: 'aborted', message: error.message };
      case 'NetworkError':
      case 'TimeoutError':
        return { code: 'unreachable', message: error.message };
    }
    if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
      return { code: 'conflict', message: 'That already exists' };
    }
    return { code: 'internal', message: error.message };
  }
  return { code: 'internal', message: String(error) };
}
