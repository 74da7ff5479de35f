/**
 * Before revoking an API token: whether it is the one this app uses for the tenant, compared in the engine against
 * the key in the keychain, the key itself in no answer.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { holdsKey } from '../../src/main/engine/resources/app-key';
import type { Sandbox } from '../../src/server/app';
import { connect, failure } from '../helpers/engine';
import { call, sandbox } from '../helpers/sandbox';
import { requireKeychainSession } from '../helpers/temp';

let server: Sandbox;
beforeAll(async () => {
  requireKeychainSession();
  server = await sandbox();
});

describe('resources.usedByApp', () => {
  it('names the API token whose key the app uses for this tenant, and no other; the key is in no answer', async () => {
    const made = await call(server, 'POST', '/api/core/platform/api-tokens/', {
      json: { name: 'the-apps-own', platform_key: server.org },
    });
    const key = (made.body as { key: string }).key;
    const c = await connect(server, { secret: key });
    const answer = await c.engine.invoke('resources.usedByApp', {
      kind: 'api-tokens',
      ids: ['sandbox', 'student', 'the-apps-own'],
    });
    expect(answer).toEqual({ ids: ['the-apps-own'], checked: true });
    expect(JSON.stringify(answer)).not.toContain(key.slice(-4));

    const other = await connect(server);
    expect(
      await other.engine.invoke('resources.usedByApp', { kind: 'api-tokens', ids: ['student', 'the-apps-own'] }),
    ).toEqual({ ids: [], checked: true });

    server.setFaults('error5xx=1');
    try {
      expect(await c.engine.invoke('resources.usedByApp', { kind: 'api-tokens', ids: ['the-apps-own'] })).toEqual({
        ids: [],
        checked: false,
      });
    } finally {
      server.setFaults('');
    }
    expect(await failure(c.engine, 'resources.usedByApp', { kind: 'lti-keys', ids: ['1'] })).toMatchObject({
      code: 'validation',
    });
  });

  it('compares a masked key by its last four characters, a whole one whole', () => {
    expect(holdsKey('************Wx9z', 'abcdefWx9z')).toBe(true);
    expect(holdsKey('************Wx9z', 'abcdefWx9Z')).toBe(false);
    expect(holdsKey('abcdefWx9z', 'abcdefWx9z')).toBe(true);
    expect(holdsKey('bbcdefWx9z', 'abcdefWx9z')).toBe(false);
    expect(holdsKey(undefined, 'abcdefWx9z')).toBe(false);
  });
});
