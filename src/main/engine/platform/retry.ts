/**
 * The one retry policy: what may be sent again, after which failures, how often and how long to wait. Each platform
 * operation declares its rule once (operations.ts); the transport (http.ts) follows it, and the few callers that
 * retry by themselves (the train job looks whether an upload landed before sending it again) ask it the same way.
 */
import { ApiError, NetworkError, TimeoutError } from './errors';

/** A status, or '5xx' for every server error. */
export type StatusMatch = number | '5xx';

export interface RetryTiming {
  /** Attempts in total, the first one included. */
  maxAttempts: number;
  /** Backoff before retry n is a random delay in [0, min(maxDelayMs, baseDelayMs * 2^(n-1))]. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A longer `Retry-After` is shortened to this. */
  maxRetryAfterMs: number;
}

/** What one operation declares. */
export interface RetryRule extends Partial<RetryTiming> {
  /** Answers that mean "try again": retried, after the server's `Retry-After` when it gives one. */
  statuses: readonly StatusMatch[];
  /** Sent again when no answer came (network error, timeout): only when a second copy does no harm. */
  afterNoAnswer: boolean;
  /**
   * 'transport' (default): the HTTP layer repeats the request. 'caller': it sends once and the caller repeats it
   * through `retryDelay`, after checking whether the lost attempt was applied.
   */
  by?: 'transport' | 'caller';
  /** Per attempt, when the operation needs longer than the connection's default. */
  timeoutMs?: number;
}

/** A rule with its timing filled in. */
export type RetryPolicy = RetryTiming & Omit<RetryRule, keyof RetryTiming>;

export const DEFAULT_RETRY_TIMING: Readonly<RetryTiming> = Object.freeze({
  maxAttempts: 5,
  baseDelayMs: 250,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
});

/** Answers that say the request was not taken: the server asks to come back, or a gateway could not pass it on. */
const NOT_TAKEN = [408, 429, 502, 503, 504] as const;

/**
 * Reads, and writes that leave the same state when applied twice (PUT, DELETE): every failure worth retrying is
 * retried, a 500 included.
 */
export const IDEMPOTENT: RetryRule = Object.freeze({ statuses: [...NOT_TAKEN, 500], afterNoAnswer: true });

/**
 * POSTs that change nothing, or set a value, when applied twice (a search, a setting, closing a ticket): sent again
 * after no answer. A 500 is not retried: only GET, PUT and DELETE are sent again after one.
 */
export const REPEATABLE: RetryRule = Object.freeze({ statuses: NOT_TAKEN, afterNoAnswer: true });

/**
 * Creates and PATCHes: a second copy could apply twice. Retried only after answers that say it was not taken; never
 * after no answer or a 500 (it may have done part of the work).
 */
export const ONCE: RetryRule = Object.freeze({ statuses: NOT_TAKEN, afterNoAnswer: false });

/** The rule of a request that names no operation (the untyped transport): by its method, as HTTP defines them. */
export function ruleForMethod(method: string, retryUnsafe = false): RetryRule {
  if (IDEMPOTENT_METHODS.has(method.toUpperCase())) return IDEMPOTENT;
  return retryUnsafe ? REPEATABLE : ONCE;
}

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);

/** A rule with its timing: the rule's own, then the connection's tuning and the caller's, over the defaults. */
export function resolvePolicy(rule: RetryRule, ...overrides: (Partial<RetryTiming> | undefined)[]): RetryPolicy {
  const policy = { ...DEFAULT_RETRY_TIMING, ...rule } as RetryPolicy;
  for (const override of overrides) {
    for (const [key, value] of Object.entries(override ?? {})) {
      if (value !== undefined && key in DEFAULT_RETRY_TIMING) policy[key as keyof RetryTiming] = value as number;
    }
  }
  policy.maxAttempts = Math.max(1, Math.floor(policy.maxAttempts));
  return policy;
}

/** An answer that failed: its status and, when the server said so, how long it asked to wait. */
export interface FailedAnswer {
  status: number;
  retryAfterMs?: number | undefined;
}

/**
 * How long to wait before sending again after `failure` on attempt `attempt` (1-based), or null when the policy
 * says not to: attempts used up, an answer it does not retry, no answer for an operation that must not be repeated,
 * or any other error (TLS, cancel, a bug).
 */
export function retryDelay(
  policy: RetryPolicy,
  failure: FailedAnswer | unknown,
  attempt: number,
  random: () => number = Math.random,
): number | null {
  if (attempt >= policy.maxAttempts) return null;
  if (isFailedAnswer(failure)) {
    if (!retriesStatus(policy, failure.status)) return null;
    return failure.retryAfterMs === undefined
      ? backoffDelay(attempt, policy, random)
      : Math.min(failure.retryAfterMs, policy.maxRetryAfterMs);
  }
  if (failure instanceof NetworkError || failure instanceof TimeoutError) {
    return policy.afterNoAnswer ? backoffDelay(attempt, policy, random) : null;
  }
  return null;
}

/** Whether the rule sends an operation again after this status. */
export function retriesStatus(rule: Pick<RetryRule, 'statuses'>, status: number): boolean {
  return rule.statuses.some((match) => (match === '5xx' ? status >= 500 && status <= 599 : match === status));
}

function isFailedAnswer(value: unknown): value is FailedAnswer {
  return (
    value instanceof ApiError ||
    (!!value &&
      typeof value === 'object' &&
      !(value instanceof Error) &&
      typeof (value as FailedAnswer).status === 'number')
  );
}

/** Full jitter: spreads retries of many clients evenly instead of in waves. */
export function backoffDelay(
  attempt: number,
  timing: Pick<RetryTiming, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(timing.maxDelayMs, timing.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(random() * ceiling);
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/**
 * What a failed request means for whoever sent it, decided here once for every area:
 * - 'not-taken': the tenant refused it before doing anything (408, 429): safe to send again later, and a job waits;
 * - 'transient': no answer, or a server error (any 5xx): the tenant may answer later, but the request may have been
 *   applied, so a write looks before sending again; a job waits, a screen shows what was saved;
 * - 'final': any other answer or error (a 4xx such as 400, 401, 403 or 404, a cancel, TLS, a bug): sending it again
 *   would get the same answer.
 */
export type FailureClass = 'not-taken' | 'transient' | 'final';

/** The statuses that say the request was refused unread. */
const REFUSED_UNREAD: ReadonlySet<number> = new Set([408, 429]);

export function classifyFailure(error: unknown): FailureClass {
  if (error instanceof NetworkError || error instanceof TimeoutError) return 'transient';
  if (!(error instanceof ApiError)) return 'final';
  return classifyStatus(error.status);
}

/** The same for an answer's status alone (an error carried on as the engine's own, with the status it had). */
export function classifyStatus(status: number): FailureClass {
  if (REFUSED_UNREAD.has(status)) return 'not-taken';
  return status >= 500 && status <= 599 ? 'transient' : 'final';
}

/**
 * The tenant did not answer, or answered "not now" (408, 429, any 5xx), even after the transport's retries: it may
 * well answer later. Jobs wait and come back; screens show what was saved.
 */
export function isTransient(error: unknown): error is Error {
  return classifyFailure(error) !== 'final';
}

/** An answer that refused the request before doing anything with it (408, 429): safe to send again later. */
export function wasNotTaken(error: unknown): error is ApiError {
  return classifyFailure(error) === 'not-taken';
}

/**
 * Statuses a tenant answers when it has more than it can take (too many requests, unavailable, its gateway timed
 * out): the job limiter (jobs/limiter.ts) sends fewer at once. Concurrency, not retrying: a 408 or a 500 says
 * nothing about load.
 */
export const OVERLOAD_STATUSES: ReadonlySet<number> = new Set([429, 503, 504]);
