/**
 * A kind's operations need no line in operations.ts: each is sent with its method's retry rule (GET, PUT and DELETE
 * again after a server error or a lost answer, a POST or PATCH only after an answer that says it was not taken),
 * unless operations.ts gives it a rule of its own.
 */
import { describe, expect, it } from 'vitest';
import { declaredRule, ruleOf } from '../../src/main/engine/platform/operations';
import { IDEMPOTENT, ONCE, ruleForMethod } from '../../src/main/engine/platform/retry';
import { RESOURCES, type OperationRef } from '../../src/shared/resources';
import { connect, failure } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { startServer } from '../platform/test-server';

/** Every platform operation a kind declares: its operations, named actions, fields' own calls, described fields. */
function kitOperations(): OperationRef[] {
  const found: OperationRef[] = [];
  const add = (value: unknown) => {
    const ref = value as Partial<OperationRef> | undefined;
    if (ref?.path && ref.method) found.push(ref as OperationRef);
  };
  for (const declaration of Object.values(RESOURCES) as Record<string, unknown>[]) {
    Object.values((declaration.operations ?? {}) as object).forEach(add);
    for (const action of Object.values((declaration.actions ?? {}) as object)) {
      add((action as { operation?: unknown }).operation ?? action);
    }
    for (const field of (declaration.fields ?? []) as { own?: object }[]) Object.values(field.own ?? {}).forEach(add);
    add((declaration.describedFields as { operation?: unknown } | undefined)?.operation);
  }
  return found;
}

describe("a kind's retry rule", () => {
  it("is its method's unless operations.ts gives it one: a simple kind needs no line there", () => {
    const operations = kitOperations();
    expect(operations.length).toBeGreaterThan(40);
    for (const { method, path } of operations) {
      const rule = ruleOf(method, path);
      expect(rule, `${method} ${path}`).toBe(declaredRule(method, path) ?? ruleForMethod(method));
    }
    expect(ruleForMethod('get')).toBe(IDEMPOTENT);
    expect(ruleForMethod('put')).toBe(IDEMPOTENT);
    expect(ruleForMethod('delete')).toBe(IDEMPOTENT);
    expect(ruleForMethod('post')).toBe(ONCE);
    expect(ruleForMethod('patch')).toBe(ONCE);
    // LTI keys are a simple kind: none of their operations has a line of its own.
    for (const operation of Object.values(RESOURCES['lti-keys'].operations)) {
      expect(declaredRule(operation.method, operation.path), `${operation.method} ${operation.path}`).toBeUndefined();
    }
  });

  it('sends a kind’s GET again after a server error, and its POST once', async () => {
    const platform = await sandbox();
    const failing = await startServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"detail":"boom"}');
    });
    const c = await connect(platform, { baseUrl: failing.url, key: 'env-only' });
    const keys = (method: string) =>
      failing.requests.filter((r) => r.method === method && r.url.startsWith('/api/core/lti/1p3/provider/lti-keys/'));

    await failure(c.engine, 'resources.list', { kind: 'lti-keys', refresh: true });
    expect(keys('GET').length).toBeGreaterThan(1);
    await failure(c.engine, 'resources.create', { kind: 'lti-keys', values: { name: 'Once only' } });
    expect(keys('POST')).toHaveLength(1);
  }, 60_000);
});
