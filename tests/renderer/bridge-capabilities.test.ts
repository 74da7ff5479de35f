/**
 * Each transport says what its host can do, and the renderer asks that rather than which transport it is. The
 * desktop app's bridge (over the preload's `window.api`, here a recording stand-in for the preload since the
 * Electron binary cannot run on this machine) hands dialogs and dropped files to the main process, and leaves
 * notifications and "Show in folder" to the shell.
 */
import { describe, expect, it } from 'vitest';
import { createElectronBridge } from '../../src/renderer/bridge/electronBridge';
import type { ChoosePurpose, GrantedPath, PreloadApi } from '../../src/shared/transport';

describe("the desktop app's bridge", () => {
  it('says the shell notifies and reveals files, and that dialogs and dropped files go to the main process', async () => {
    const asked: string[] = [];
    const granted: GrantedPath = { handle: 'h1', name: 'notes', path: '/home/admin/notes' };
    const api: PreloadApi = {
      calls: {} as PreloadApi['calls'],
      onEvent: () => () => {},
      choosePaths: async (purpose: ChoosePurpose) => {
        asked.push(`choose ${purpose}`);
        return [granted];
      },
      grantFiles: async (files: File[]) => {
        asked.push(`grant ${files.map((file) => file.name).join(',')}`);
        return [granted];
      },
    };
    const { capabilities } = createElectronBridge(api);
    expect(capabilities).toMatchObject({ notifications: true, revealFile: true });
    expect(capabilities.staging).toBeUndefined();
    expect(capabilities.downloadFile).toBeUndefined();
    expect(await capabilities.pickFiles!('export-folder')).toEqual([granted]);
    expect(await capabilities.dropPaths!([new File(['a,b'], 'people.csv')])).toEqual([granted]);
    expect(asked).toEqual(['choose export-folder', 'grant people.csv']);
  });

  it('has no transport name for the renderer to branch on', () => {
    const bridge = createElectronBridge({
      calls: {} as PreloadApi['calls'],
      onEvent: () => () => {},
      choosePaths: async () => [],
      grantFiles: async () => [],
    });
    expect('kind' in bridge).toBe(false);
  });
});
