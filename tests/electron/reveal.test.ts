/**
 * "Show in folder" in the desktop app: the policy deciding what the shell may open (pure), and the call wrapper
 * the main process puts in front of the engine, driven here with a real engine that really exported a file from
 * the sandbox. Only Electron's `shell.showItemInFolder` is a stand-in: the Electron binary cannot run here.
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isPlainLocalPath, revealDecision } from '../../src/main/electron/policies';
import { withShowInFolder } from '../../src/main/electron/reveal';
import type { Sandbox } from '../../src/server/app';
import { connect, settled } from '../analytics/setup';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';

const FILE = '/home/admin/Downloads/org-topics-2026-10-01_2026-10-31-UTC.csv';
const done = { id: 'job-1', state: 'completed', path: FILE };
const found = { path: FILE, folder: dirname(FILE), exists: true, shown: false };
const decide = (facts: Partial<Parameters<typeof revealDecision>[0]>) =>
  revealDecision({ id: 'job-1', answer: found, recorded: done, platform: 'linux', ...facts });

describe('revealDecision', () => {
  it('shows the file a finished export of this app wrote', () => {
    expect(decide({})).toEqual({ show: true, path: FILE });
    const windows = 'C:\\Users\\admin\\Downloads\\org-topics.csv';
    expect(
      decide({
        platform: 'win32',
        answer: { ...found, path: windows },
        recorded: { ...done, path: windows },
      }),
    ).toEqual({ show: true, path: windows });
  });

  it('refuses anything else', () => {
    const refused = (facts: Partial<Parameters<typeof revealDecision>[0]>) => {
      const decision = decide(facts);
      expect(decision.show, JSON.stringify(facts)).toBe(false);
      return (decision as { reason: string }).reason;
    };
    expect(refused({ id: undefined })).toBe('no export named');
    expect(refused({ id: '' })).toBe('no export named');
    expect(refused({ recorded: undefined })).toBe('not an export this app made');
    expect(refused({ recorded: { ...done, id: 'job-2' } })).toBe('not an export this app made');
    expect(refused({ recorded: { ...done, path: 42 } })).toBe('not an export this app made');
    expect(refused({ recorded: { ...done, state: 'running' } })).toBe('the export has not finished');
    expect(refused({ recorded: { ...done, state: 'failed' } })).toBe('the export has not finished');
    expect(refused({ answer: { ...found, path: '/etc/passwd' } })).toBe('not the file the export wrote');
    expect(refused({ answer: undefined })).toBe('not the file the export wrote');
    expect(refused({ answer: { ...found, exists: false } })).toBe('the file is not there any more');
    for (const path of ['relative/file.csv', '/home/admin/../../etc/passwd', '/home//admin/x.csv', '//server/x.csv'])
      expect(refused({ answer: { ...found, path }, recorded: { ...done, path } })).toBe('not a plain local file path');
  });
});

describe('isPlainLocalPath', () => {
  it('takes absolute, normal local paths only', () => {
    expect(isPlainLocalPath('/home/admin/a.csv', 'linux')).toBe(true);
    expect(isPlainLocalPath('/Users/admin/a b.csv', 'darwin')).toBe(true);
    expect(isPlainLocalPath('D:\\Exports\\a.csv', 'win32')).toBe(true);
    for (const [path, platform] of [
      ['', 'linux'],
      ['a.csv', 'linux'],
      ['./a.csv', 'linux'],
      ['/home/admin/./a.csv', 'linux'],
      ['/home/admin/a.csv\0.txt', 'linux'],
      ['//host/share/a.csv', 'linux'],
      ['\\\\server\\share\\a.csv', 'win32'],
      ['\\\\?\\C:\\a.csv', 'win32'],
      ['\\\\.\\PhysicalDrive0', 'win32'],
      ['C:a.csv', 'win32'],
      ['C:/Users/a.csv', 'win32'],
      ['C:\\Users\\..\\Windows\\a.csv', 'win32'],
      ['/home/admin/a.csv', 'win32'],
    ] as const)
      expect(isPlainLocalPath(path, platform), `${path} on ${platform}`).toBe(false);
  });
});

describe('withShowInFolder', () => {
  let server: Sandbox;
  beforeAll(async () => {
    server = await sandbox({ seed: 'demo' });
  });

  it('opens the folder of a file the app exported, and only that', async () => {
    const { engine } = await connect(server);
    const opened: string[] = [];
    const warnings: string[] = [];
    const target = withShowInFolder(engine, (path) => opened.push(path), {
      platform: process.platform,
      warn: (line) => warnings.push(line),
    });
    const folder = tempDir();
    const started = await engine.invoke('analytics.exportStart', {
      dataset: 'chart.topics',
      range: { preset: 'custom', from: '2026-10-01', to: '2026-10-31' },
      timeZone: 'UTC',
      folder,
    });
    const export_ = await settled(engine, started.id);
    expect(export_.state).toBe('completed');

    // The shell opens the folder with the file selected, and tells the page it did.
    expect(await target.call('analytics.reveal', { id: export_.id })).toEqual({
      ok: true,
      value: { path: export_.path, folder, exists: true, shown: true },
    });
    expect(opened).toEqual([export_.path]);

    // Every other call goes to the engine untouched.
    expect(await target.call('analytics.export', { id: export_.id })).toEqual(
      await engine.call('analytics.export', { id: export_.id }),
    );
    // An id the engine does not know: its error, nothing opened.
    const unknown = await target.call('analytics.reveal', { id: 'no-such-export' });
    expect(unknown.ok).toBe(false);
    // The file gone: the engine's answer (where it was), nothing opened.
    rmSync(export_.path);
    expect(await target.call('analytics.reveal', { id: export_.id })).toEqual({
      ok: true,
      value: { path: export_.path, folder, exists: false, shown: false },
    });
    expect(opened).toEqual([export_.path]);
    expect(warnings).toEqual([]);
  });
});
