/**
 * The engine's configuration is parsed once, at its start: the switches its shell chose, overridden where the user's
 * environment says so, and a malformed variable stops the start with a message naming it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine, shellPreset } from '../../src/main/engine';
import { parseEngineConfig } from '../../src/main/engine/config';
import { noKeychain } from '../helpers/engine';
import { tempDir } from '../helpers/temp';

const parse = (input: Parameters<typeof shellPreset>[0], env: NodeJS.ProcessEnv = {}) =>
  parseEngineConfig({ ...shellPreset(input), dataDir: '/data', env }).config;

describe('engine configuration', () => {
  it('gives each shell its switches, and an engine given none starts nothing by itself', () => {
    expect(parse('electron')).toMatchObject({ sandbox: 'auto', scheduler: true, followOtherProcesses: true });
    expect(parse('browser')).toMatchObject({ sandbox: 'auto', scheduler: true, followOtherProcesses: true });
    expect(parse('cli')).toMatchObject({ sandbox: 'lazy', scheduler: false, followOtherProcesses: false });
    expect(parse('test')).toMatchObject({
      sandbox: 'off',
      scheduler: false,
      followOtherProcesses: false,
      resumeJobs: true,
      ensureTenant: false,
      schedulerTickMs: 30_000,
    });
    expect(parse('test')).not.toHaveProperty('shell');
  });

  it('lets the environment turn the sandbox off and the scheduler on or off, whatever the shell', () => {
    expect(parse('browser', { MENTOR_ADMIN_SANDBOX: 'off' }).sandbox).toBe('off');
    expect(parse('cli', { MENTOR_ADMIN_SANDBOX: 'on' }).sandbox).toBe('lazy');
    expect(parse('browser', { MENTOR_ADMIN_SCHEDULER: 'off' }).scheduler).toBe(false);
    expect(parse('cli', { MENTOR_ADMIN_SCHEDULER: 'on', MENTOR_ADMIN_SCHEDULER_TICK_MS: '100' })).toMatchObject({
      scheduler: true,
      schedulerTickMs: 100,
    });
    expect(parse('test', { MENTOR_ADMIN_INVITE_CHUNK: '7', MENTOR_ADMIN_EXPORT_DIR: '/exports' })).toMatchObject({
      invite: { chunkSize: 7, maxChunk: undefined },
      exportDir: '/exports',
    });
    // Jobs that name no concurrency learn up to 16 at once, or up to what the environment says.
    expect(parse('cli', {}).adaptiveConcurrency).toBe(16);
    expect(parse('cli', { MENTOR_ADMIN_MAX_CONCURRENCY: '4' }).adaptiveConcurrency).toBe(4);
    // An empty variable is an unset one.
    expect(parse('browser', { MENTOR_ADMIN_SANDBOX: '', MENTOR_ADMIN_EXPORT_DIR: '' })).toMatchObject({
      sandbox: 'auto',
      exportDir: undefined,
    });
  });

  it('keeps MENTOR_ADMIN_API_KEY out of what areas are configured with', () => {
    const { config, apiKey } = parseEngineConfig({
      ...shellPreset('cli'),
      dataDir: '/data',
      env: { MENTOR_ADMIN_API_KEY: ' key-7f3a ', PATH: '/usr/bin' },
    });
    expect(apiKey).toBe('key-7f3a');
    expect(JSON.stringify(config)).not.toContain('key-7f3a');
    expect(config.sandboxEnvironment).toEqual({ PATH: '/usr/bin' });
  });

  it('refuses a malformed variable with its name and value', () => {
    const refused = (env: NodeJS.ProcessEnv) => () => parse('browser', env);
    expect(refused({ MENTOR_ADMIN_SCHEDULER: 'yes' })).toThrow(
      "MENTOR_ADMIN_SCHEDULER must be on or off (it is 'yes')",
    );
    expect(refused({ MENTOR_ADMIN_SANDBOX: 'of' })).toThrow("MENTOR_ADMIN_SANDBOX must be on or off (it is 'of')");
    expect(refused({ MENTOR_ADMIN_SCHEDULER_TICK_MS: 'soon' })).toThrow(
      "MENTOR_ADMIN_SCHEDULER_TICK_MS must be a whole number (it is 'soon')",
    );
    expect(refused({ MENTOR_ADMIN_SCHEDULER_TICK_MS: '10' })).toThrow(
      'MENTOR_ADMIN_SCHEDULER_TICK_MS must be at least 50',
    );
    expect(refused({ MENTOR_ADMIN_INVITE_CHUNK: '2.5' })).toThrow('MENTOR_ADMIN_INVITE_CHUNK must be a whole number');
    expect(refused({ MENTOR_ADMIN_MAX_CONCURRENCY: '0' })).toThrow('MENTOR_ADMIN_MAX_CONCURRENCY must be at least 1');
  });

  it('refuses to start on a malformed variable before it touches the data folder', async () => {
    const dataDir = join(tempDir(), 'data');
    await expect(
      createEngine({ dataDir, shell: 'test', secrets: noKeychain, env: { MENTOR_ADMIN_SCHEDULER: 'sometimes' } }),
    ).rejects.toThrow(/^MENTOR_ADMIN_SCHEDULER must be on or off/);
    expect(existsSync(dataDir)).toBe(false);
  });
});
