/**
 * "Both sides parse": the renderer checks what it sends and what it gets back against the same zod schemas the
 * engine uses, so a mismatch shows up as a typed error next to the call instead of a crash deep in a screen.
 */
import {
  BridgeCallError,
  calls,
  describeIssues,
  events,
  isEventName,
  issuesFromZod,
  type CallName,
  type CallOutput,
} from '../../shared/contract';
import type { BridgeEvent } from './types';

/** Throws a `validation` error with field issues, exactly like the engine would, before anything is sent. */
export function checkInput(name: CallName, input: unknown): void {
  const parsed = calls[name].input.safeParse(input);
  if (!parsed.success) {
    const issues = issuesFromZod(parsed.error);
    throw new BridgeCallError({ code: 'validation', message: describeIssues(issues), issues });
  }
}

export function parseOutput<N extends CallName>(name: N, value: unknown): CallOutput<N> {
  const parsed = calls[name].output.safeParse(value);
  if (!parsed.success) {
    throw new BridgeCallError({
      code: 'internal',
      message: `The engine answered ${name} with an unexpected shape: ${describeIssues(issuesFromZod(parsed.error))}`,
    });
  }
  return parsed.data as CallOutput<N>;
}

/** Returns `undefined` for unknown or malformed events so one bad message cannot break every listener. */
export function parseEvent(name: unknown, payload: unknown): BridgeEvent | undefined {
  if (!isEventName(name)) return undefined;
  const parsed = events[name].safeParse(payload);
  if (!parsed.success) {
    console.warn(`Ignoring malformed ${name} event`, parsed.error.issues);
    return undefined;
  }
  return { name, payload: parsed.data } as BridgeEvent;
}
