/**
 * The one contract between the renderer (or CLI, or tests) and the engine.
 * Every call and every event is declared here once, with zod schemas for what goes in and what comes out.
 * Transports (Electron IPC, WebSocket, in-process) only move `{ name, input }` and a `BridgeResult` envelope.
 */
import { z } from 'zod';
import { coreCalls, coreEvents } from './contract/core';
import { jobCalls, jobEvents } from './contract/jobs';
import { mentorCalls, mentorEvents } from './contract/mentors';
import { trainCalls } from './contract/train';
import { invitationCalls, invitationEvents } from './contract/invitations';
import { ticketCalls, ticketEvents } from './contract/tickets';
import { analyticsCalls, analyticsEvents } from './contract/analytics';
import { resourceCalls, resourceEvents } from './contract/resources';
import { mentorTransferCalls } from './contract/mentor-transfer';
import { mentorSharingCalls, mentorSharingEvents } from './contract/mentor-sharing';
import { mentorVoiceCalls, mentorVoiceEvents } from './contract/mentor-voice';
import { reviewCalls, reviewEvents } from './contract/review';
import { reachCalls, reachEvents } from './contract/reach';

export * from './contract/core';
export * from './contract/jobs';
export * from './contract/mentors';
export * from './contract/train';
export * from './contract/invitations';
export * from './contract/tickets';
export * from './contract/analytics';
export * from './contract/resources';
export * from './contract/access';
export * from './contract/people';
export * from './contract/person';
export * from './contract/licences';
export * from './contract/catalogue';
export * from './contract/memory';
export * from './contract/badges';
export * from './contract/mentor-transfer';
export * from './contract/mentor-bulk';
export * from './contract/mentor-sharing';
export * from './contract/mentor-evals';
export * from './contract/mentor-voice';
export * from './contract/review';
export * from './contract/reach';
export * from './contract/sessions';
export * from './contract/calls';
export {
  call,
  event,
  type CallSpec,
  type EventSpec,
  type Invalidation,
  type PathAccess,
  type TenantInvalidation,
  type Update,
} from './contract/kit';

// ---------------------------------------------------------------------------------------------------------------
// Calls and events: one module per area under ./contract/, gathered here.
// ---------------------------------------------------------------------------------------------------------------

export const calls = {
  ...coreCalls,
  ...jobCalls,
  ...mentorCalls,
  ...trainCalls,
  ...invitationCalls,
  ...ticketCalls,
  ...analyticsCalls,
  ...resourceCalls,
  ...mentorTransferCalls,
  ...mentorSharingCalls,
  ...mentorVoiceCalls,
  ...reviewCalls,
  ...reachCalls,
} as const;

/** Every event: its payload's schema and the cached answers it makes stale (see `event` in contract/kit.ts). */
export const eventSpecs = {
  ...coreEvents,
  ...jobEvents,
  ...mentorEvents,
  ...invitationEvents,
  ...ticketEvents,
  ...analyticsEvents,
  ...resourceEvents,
  ...mentorSharingEvents,
  ...mentorVoiceEvents,
  ...reviewEvents,
  ...reachEvents,
} as const;
type EventSpecs = typeof eventSpecs;

/** Every event's payload schema, by name. */
export const events = Object.fromEntries(Object.entries(eventSpecs).map(([name, spec]) => [name, spec.payload])) as {
  [E in keyof EventSpecs]: EventSpecs[E]['payload'];
};

export type Calls = typeof calls;
export type CallName = keyof Calls;
export type CallInput<N extends CallName> = z.input<Calls[N]['input']>;
export type CallOutput<N extends CallName> = z.output<Calls[N]['output']>;
export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

export const callNames = Object.keys(calls) as CallName[];
export const eventNames = Object.keys(events) as EventName[];

export function isCallName(value: unknown): value is CallName {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(calls, value);
}
export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(events, value);
}

// ---------------------------------------------------------------------------------------------------------------
// The envelope every transport carries
// ---------------------------------------------------------------------------------------------------------------

export const ErrorCode = z.enum([
  'validation', // the call or its input does not match the contract
  'not_found',
  'conflict',
  'keychain', // the OS keychain is unavailable or refused
  'api', // the platform answered with an error
  'unreachable',
  'aborted',
  'internal',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const BridgeError = z.object({
  code: ErrorCode,
  message: z.string(),
  /** Field-level problems for validation errors: `path` is dotted, e.g. `baseUrl`. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  status: z.number().int().optional(),
});
export type BridgeError = z.infer<typeof BridgeError>;

export const BridgeResult = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: BridgeError }),
]);
export type BridgeResult<T = unknown> = { ok: true; value: T } | { ok: false; error: BridgeError };

/** An error that crossed the bridge; thrown by bridge clients so callers can `catch` it like any other. */
export class BridgeCallError extends Error {
  readonly code: ErrorCode;
  readonly issues: BridgeError['issues'];
  readonly status: number | undefined;
  constructor(error: BridgeError) {
    super(error.message);
    this.name = 'BridgeCallError';
    this.code = error.code;
    this.issues = error.issues;
    this.status = error.status;
  }
}

export function issuesFromZod(error: z.ZodError): NonNullable<BridgeError['issues']> {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

export function describeIssues(issues: NonNullable<BridgeError['issues']>): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
}
