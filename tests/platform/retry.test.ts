/** The one retry policy: each operation's declared rule, and the decisions the transport and the jobs take from it. */
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  isTransient,
  NetworkError,
  OPERATIONS,
  RequestAbortedError,
  retryDelay,
  retryPolicyOf,
  TimeoutError,
  TlsError,
  wasNotTaken,
  type RetryRule,
} from '../../src/main/engine/platform';
import { resolvePolicy } from '../../src/main/engine/platform/retry';

const lost = new NetworkError('https://h/api/x/', 'ECONNRESET');
const answer = (status: number, retryAfterMs?: number) =>
  new ApiError({ url: 'https://h/api/x/', status, retryAfterMs });
const never = () => 1;

/** What a rule does after each kind of failure, on the first attempt. */
function behaviour(rule: RetryRule) {
  const policy = resolvePolicy(rule);
  const retried = (failure: unknown) => retryDelay(policy, failure, 1, never) !== null;
  return {
    by: rule.by ?? 'transport',
    500: retried(answer(500)),
    503: retried(answer(503)),
    429: retried(answer(429)),
    400: retried(answer(400)),
    lost: retried(lost),
  };
}

describe('declared rules', () => {
  it('repeats reads and idempotent writes after anything worth retrying, creates only after "not taken"', () => {
    const rules = OPERATIONS as Record<string, Record<string, RetryRule>>;
    const read = { by: 'transport', 500: true, 503: true, 429: true, 400: false, lost: true };
    // POSTs that change nothing on the tenant (speech made from text, text from speech) are asked again like reads.
    const computed = (path: string) => path.endsWith('/custom-voice-tts/') || path.endsWith('/audio-to-text/');
    for (const [path, methods] of Object.entries(rules)) {
      for (const [method, rule] of Object.entries(methods)) {
        const seen = behaviour(rule);
        if (method === 'get' || method === 'put' || method === 'delete' || (method === 'post' && computed(path)))
          expect(seen, `${method} ${path}`).toEqual(read);
        else expect(seen[500], `${method} ${path}`).toBe(path.endsWith('/train/'));
      }
    }
    const user = '/api/ai-mentor/orgs/{org}/users/{user_id}';
    // A create or a reply could apply twice: only answers that say it was not taken are retried.
    const once = { by: 'transport', 500: false, 503: true, 429: true, 400: false, lost: false };
    expect(behaviour(rules[`${user}/`]!.post!)).toEqual(once);
    expect(behaviour(rules[`${user}/support-ticket-messages/`]!.post!)).toEqual(once);
    expect(behaviour(rules['/api/catalog/invitations/platform/bulk/']!.post!)).toEqual(once);
    expect(behaviour(rules[`${user}/{name}/`]!.patch!)).toEqual(once);
    // Closing a ticket, a setting, a search: sent again after a lost answer.
    const repeatable = { ...once, lost: true };
    expect(behaviour(rules[`${user}/support-tickets/{id}/close/`]!.post!)).toEqual(repeatable);
    expect(behaviour(rules['/api/ai-index/orgs/{org}/users/{user_id}/documents/search/']!.post!)).toEqual(repeatable);
  });

  it('leaves the upload to its caller, which retries server errors, 408/425/429 and lost answers six times', () => {
    const policy = retryPolicyOf('post', '/api/ai-index/orgs/{org}/users/{user_id}/documents/train/');
    expect(policy).toMatchObject({ by: 'caller', maxAttempts: 6, baseDelayMs: 500, maxDelayMs: 8_000 });
    for (const status of [408, 425, 429, 500, 501, 502, 503, 504, 520]) {
      expect(retryDelay(policy, answer(status), 1, never), String(status)).not.toBeNull();
    }
    for (const status of [400, 401, 403, 404, 409, 413, 422]) {
      expect(retryDelay(policy, answer(status), 1, never), String(status)).toBeNull();
    }
    expect(retryDelay(policy, lost, 5, never)).toBe(8_000);
    expect(retryDelay(policy, lost, 6, never)).toBeNull();
  });
});

describe('decisions', () => {
  const policy = resolvePolicy({ statuses: [429, 503], afterNoAnswer: true, baseDelayMs: 100, maxDelayMs: 1_000 });

  it('waits as the server asks (Retry-After, capped), else backs off with jitter', () => {
    expect(retryDelay(policy, answer(503, 7_000), 1, never)).toBe(7_000);
    expect(retryDelay(policy, answer(429, 600_000), 1, never)).toBe(policy.maxRetryAfterMs);
    expect(retryDelay(policy, { status: 503 }, 3, never)).toBe(400);
    expect(retryDelay(policy, new TimeoutError('https://h/', 10), 2, () => 0.5)).toBe(100);
  });

  it('never repeats a cancel, a TLS failure or a bug, and stops at the last attempt', () => {
    expect(retryDelay(policy, new RequestAbortedError(), 1)).toBeNull();
    expect(retryDelay(policy, new TlsError('https://h/', 'CERT_HAS_EXPIRED'), 1)).toBeNull();
    expect(retryDelay(policy, new TypeError('x is undefined'), 1)).toBeNull();
    expect(retryDelay(policy, answer(503), policy.maxAttempts)).toBeNull();
  });

  it('tells a tenant that may answer later from one that refused, and what was refused unread', () => {
    expect(
      [lost, new TimeoutError('https://h/'), answer(500), answer(503), answer(429), answer(408)].every(isTransient),
    ).toBe(true);
    expect([answer(400), answer(401), answer(404), new RequestAbortedError(), new Error('bug')].some(isTransient)).toBe(
      false,
    );
    expect([answer(429), answer(408)].every(wasNotTaken)).toBe(true);
    expect([answer(503), lost].some(wasNotTaken)).toBe(false);
  });
});
