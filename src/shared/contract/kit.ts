/** The building blocks every contract module uses. */
import { z } from 'zod';
import type { CallInput, CallName, CallOutput } from '../contract';

/**
 * What the engine does with a file or folder named in a call's input: read it (train, import) or write into it
 * (exports, reports). The app's page never names one by its path: it holds an opaque handle that its shell gave it
 * (a dialog or a drop in Electron, a staged upload in browser mode), and the shell turns the handle into the path
 * before the engine sees the call. The CLI and in-process callers pass real paths.
 */
export type PathAccess = 'read' | 'write';

export interface CallSpec<I extends z.ZodType, O extends z.ZodType> {
  input: I;
  output: O;
  /** One line for docs, the CLI and error messages. */
  summary: string;
  /** Top-level input fields holding a file or folder path (a string, or an array of strings), and their access. */
  localPaths?: Readonly<Record<string, PathAccess>>;
}

export const call = <I extends z.ZodType, O extends z.ZodType>(
  input: I,
  output: O,
  summary: string,
  options: { localPaths?: Readonly<Record<string, PathAccess>> } = {},
): CallSpec<I, O> => ({
  input,
  output,
  summary,
  ...(options.localPaths && { localPaths: options.localPaths }),
});

/** Input of calls that take nothing. */
export const Empty = z.object({}).strict().optional();
export const Ok = z.object({ ok: z.literal(true) });

// ---------------------------------------------------------------------------------------------------------------
// Events, and the cached answers each makes stale
// ---------------------------------------------------------------------------------------------------------------

/** Every field an input can name (across the variants of a union input). */
type InputField<N extends CallName> =
  NonNullable<CallInput<N>> extends infer I ? (I extends unknown ? keyof I : never) : never;

/** The fields an event narrows a call's answers by: named alike in the payload and in the call's input. */
type SharedField<P, N extends CallName> = Extract<keyof P, InputField<N>> & string;

/** Only for payloads with one of these values in a field (e.g. `{ kind: ['train'] }`). */
type When<P> = { readonly [K in keyof P]?: readonly P[K][] };

/** The cached answers of one call that an event makes stale. */
export type Invalidation<P> = {
  [N in CallName]: {
    readonly call: N;
    /**
     * Only the answers whose input holds the payload's value in these fields (the event's tenant, mentor, job):
     * an answer keyed by another tenant stays. A null in the payload, or an input without the field, narrows nothing.
     */
    readonly by?: readonly SharedField<P, N>[];
    readonly when?: When<P>;
  };
}[CallName];

/** Every answer cached for the tenant a payload field names (its connection changed, or it was removed). */
export interface TenantInvalidation<P> {
  readonly tenant: Extract<keyof P, string>;
  readonly when?: When<P>;
  /** Forget those answers rather than ask again: the tenant is gone. */
  readonly forget?: true;
}

/**
 * Cached answers an event brings up to date in place (its payload is, or holds, the new answer): a patch, not a
 * fetch, so they keep their age. `answer` returns the cached answer itself when the event does not touch it.
 */
export type Update<P> = {
  [N in CallName]: {
    readonly call: N;
    readonly by?: readonly SharedField<P, N>[];
    readonly answer: (payload: P, cached: CallOutput<N>) => CallOutput<N>;
  };
}[CallName];

export interface EventSpec<S extends z.ZodType> {
  payload: S;
  /** What a client that caches call answers (the renderer's query cache) must ask again when it hears the event. */
  invalidates: readonly (Invalidation<z.output<S>> | TenantInvalidation<z.output<S>>)[];
  updates: readonly Update<z.output<S>>[];
}

/**
 * An event: its payload's schema, and the calls whose cached answers it changes, narrowed by the payload so an event
 * about one tenant never touches another's answers. One renderer hook applies these; no screen wires its own.
 */
export const event = <S extends z.ZodType>(
  payload: S,
  effects: {
    invalidates?: readonly (Invalidation<NoInfer<z.output<S>>> | TenantInvalidation<NoInfer<z.output<S>>>)[];
    updates?: readonly Update<NoInfer<z.output<S>>>[];
  } = {},
): EventSpec<S> => ({ payload, invalidates: effects.invalidates ?? [], updates: effects.updates ?? [] });
