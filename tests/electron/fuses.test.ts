/**
 * Electron's fuses as packaged (electron-builder.yml), and the shell's way of running the local sandbox that lets
 * `runAsNode` stay off: a worker thread, never the app binary with ELECTRON_RUN_AS_NODE.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { electronSandboxLaunch } from '../../src/main/electron/sandbox-launch';

const config = parse(readFileSync('electron-builder.yml', 'utf8')) as { electronFuses?: Record<string, boolean> };

describe('electron-builder.yml fuses', () => {
  it('never lets another program run the app as plain Node, pass it Node options or attach an inspector', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
    });
  });

  it('gives file:// pages no extra privileges: the renderer is served from app://', () => {
    expect(config.electronFuses?.grantFileProtocolExtraPrivileges).toBe(false);
  });

  it('encrypts cookies and loads only the integrity-checked app.asar', () => {
    expect(config.electronFuses).toMatchObject({
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });
});

describe('electronSandboxLaunch', () => {
  it('runs the sandbox in a worker thread with the Electron SQLite build, not as the app binary run as Node', () => {
    const launch = electronSandboxLaunch('/app/native/electron/better_sqlite3.node');
    expect(launch).toEqual({
      runner: { kind: 'worker' },
      env: { SANDBOX_NATIVE_BINDING: '/app/native/electron/better_sqlite3.node' },
    });
    expect(JSON.stringify(launch)).not.toContain('ELECTRON_RUN_AS_NODE');
    expect(electronSandboxLaunch(undefined)).toEqual({ runner: { kind: 'worker' } });
  });
});
