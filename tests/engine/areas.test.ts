/**
 * An engine composed with some of its areas (what a command-line command does): the areas named work, those they are
 * built on come along, and a call of an area left out answers that it is absent instead of reaching a half-built area.
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine';
import type { BridgeError } from '../../src/shared/contract';
import { noKeychain } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';

async function failureOf(promise: Promise<unknown>): Promise<BridgeError> {
  try {
    await promise;
  } catch (error) {
    return error as BridgeError;
  }
  throw new Error('expected the call to fail');
}

describe('an engine composed with some areas', () => {
  it('runs the calls of its areas and of those they are built on, and says which calls it has not', async () => {
    const server = await sandbox();
    const engine = await createEngine({
      dataDir: tempDir(),
      shell: 'test',
      secrets: noKeychain,
      env: { MENTOR_ADMIN_API_KEY: server.apiKey },
      areas: ['train'],
    });
    try {
      await engine.invoke('profiles.add', {
        name: 'Sandbox',
        baseUrl: server.url,
        org: server.org,
        username: server.user,
        makeActive: true,
      });
      // Training is built on the mentors area: it comes along.
      expect((await engine.invoke('mentors.list', {})).mentors).toEqual([]);
      expect((await engine.invoke('jobs.list', {})).jobs).toEqual([]);

      const absent = await failureOf(engine.invoke('tickets.list', {}));
      expect(absent).toMatchObject({ code: 'internal' });
      expect(absent.message).toBe('tickets.list is not available here: this process runs without the tickets area');
      expect((await failureOf(engine.invoke('analytics.exports', {}))).message).toMatch(/without the analytics area/);
    } finally {
      await engine.close();
    }
  });

  it('has every area by default', async () => {
    const engine = await createEngine({ dataDir: tempDir(), shell: 'test', secrets: noKeychain, env: {} });
    try {
      expect((await engine.invoke('tickets.cannedReplies', {})).replies).toEqual(expect.any(Array));
    } finally {
      await engine.close();
    }
  });
});
