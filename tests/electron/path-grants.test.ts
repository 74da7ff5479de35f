/**
 * Desktop file choice: the main process shows the dialog or takes the dropped files' paths, and the page gets
 * handles. Driven with fakes of ipcMain and the dialog (the Electron binary cannot run here) and real files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IpcMain, IpcMainInvokeEvent, OpenDialogOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import {
  dialogFor,
  grantChosen,
  grantDropped,
  REFUSED_GRANT,
  registerPathGrants,
} from '../../src/main/electron/path-grants';
import { HandleRegistry } from '../../src/main/handles';
import { ChoosePurpose, IPC_CHOOSE_PATHS_CHANNEL, IPC_GRANT_FILES_CHANNEL } from '../../src/shared/transport';
import { tempDir } from '../helpers/temp';

const ENTRY = 'app://renderer/index.html';
const APP_FRAME = { url: ENTRY, parent: null };

const eventFrom = (senderId: number, frame: unknown = APP_FRAME) =>
  ({ sender: { id: senderId }, senderFrame: frame }) as unknown as IpcMainInvokeEvent;

describe('dialogFor', () => {
  it.each(ChoosePurpose.options)('%s has a titled dialog', (purpose) => {
    expect(dialogFor(purpose).options.title).toBeTruthy();
  });

  it('only the export folder is a place to write; it may be made in the dialog', () => {
    const writes = ChoosePurpose.options.filter((purpose) => dialogFor(purpose).access === 'write');
    expect(writes).toEqual(['export-folder']);
    expect(dialogFor('export-folder').options.properties).toEqual(['openDirectory', 'createDirectory']);
  });

  it('picks folders or files as the purpose needs', () => {
    expect(dialogFor('train-folder').options.properties).toEqual(['openDirectory']);
    expect(dialogFor('train-files').options.properties).toEqual(['openFile', 'multiSelections']);
    expect(dialogFor('import-csv').options).toMatchObject({
      properties: ['openFile'],
      filters: [{ extensions: ['csv', 'tsv', 'txt'] }, { extensions: ['*'] }],
    });
  });
});

describe('grantChosen', () => {
  it("answers handles for the dialog's choice, for that window, with the purpose's access", async () => {
    const registry = new HandleRegistry();
    const showOpenDialog = vi.fn(async (_event: IpcMainInvokeEvent, _options: OpenDialogOptions) => ({
      canceled: false,
      filePaths: ['/home/admin/Reports'],
    }));
    const [chosen, ...rest] = await grantChosen({ registry, showOpenDialog }, eventFrom(7), 'export-folder');
    expect(rest).toEqual([]);
    expect(chosen).toMatchObject({ name: 'Reports', path: '/home/admin/Reports' });
    expect(showOpenDialog.mock.calls[0]![1]).toEqual(dialogFor('export-folder').options);
    expect(registry.resolve(chosen!.handle, 'write', 'window:7')).toEqual({ ok: true, path: '/home/admin/Reports' });
    expect(registry.resolve(chosen!.handle, 'write', 'window:8')).toMatchObject({ ok: false, reason: 'foreign' });
  });

  it('answers nothing when the admin cancels, and refuses a purpose it does not know', async () => {
    const registry = new HandleRegistry();
    const showOpenDialog = vi.fn(async () => ({ canceled: true, filePaths: [] }));
    await expect(grantChosen({ registry, showOpenDialog }, eventFrom(1), 'train-folder')).resolves.toEqual([]);
    await expect(grantChosen({ registry, showOpenDialog }, eventFrom(1), '/etc')).rejects.toThrow('Unknown dialog');
    expect(showOpenDialog).toHaveBeenCalledTimes(1);
    expect(registry.size).toBe(0);
  });
});

describe('grantDropped', () => {
  const dir = tempDir();
  const notes = join(dir, 'Course notes');
  mkdirSync(notes);
  const csv = join(dir, 'cohort.csv');
  writeFileSync(csv, 'email\na@example.com\n');

  it('grants read handles for dropped files and folders that exist', async () => {
    const registry = new HandleRegistry();
    const granted = await grantDropped(registry, 'window:1', [notes, csv], 'linux');
    expect(granted.map(({ name, path }) => ({ name, path }))).toEqual([
      { name: 'Course notes', path: notes },
      { name: 'cohort.csv', path: csv },
    ]);
    expect(registry.resolve(granted[1]!.handle, 'read', 'window:1')).toEqual({ ok: true, path: csv });
    // Dropped is never a place to write.
    expect(registry.resolve(granted[0]!.handle, 'write', 'window:1')).toMatchObject({ reason: 'access' });
  });

  it('leaves out what is not a plain local path of something that exists', async () => {
    const registry = new HandleRegistry();
    const dropped = [join(dir, 'missing.txt'), 'relative/notes.md', `${dir}/../${dir}`, `${csv}\0.txt`, 42];
    expect(await grantDropped(registry, 'window:1', dropped, 'linux')).toEqual([]);
    // A network share on Windows: the engine would connect to it to read.
    expect(await grantDropped(registry, 'window:1', ['\\\\server\\share\\cohort.csv'], 'win32')).toEqual([]);
    expect(registry.size).toBe(0);
  });

  it('refuses what is not a list, or too long a one', async () => {
    const registry = new HandleRegistry();
    await expect(grantDropped(registry, 'window:1', csv, 'linux')).rejects.toThrow();
    await expect(grantDropped(registry, 'window:1', Array(10_001).fill(csv), 'linux')).rejects.toThrow(
      'Drop at most 10000 items',
    );
  });
});

describe('registerPathGrants', () => {
  type Handler = (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>;
  function setup() {
    const handlers = new Map<string, Handler>();
    const ipc = {
      handle: (channel: string, handler: Handler) => handlers.set(channel, handler),
      removeHandler: (channel: string) => handlers.delete(channel),
    } as unknown as Pick<IpcMain, 'handle' | 'removeHandler'>;
    const registry = new HandleRegistry();
    const showOpenDialog = vi.fn(async () => ({ canceled: false, filePaths: ['/home/admin/notes'] }));
    const unregister = registerPathGrants(ipc, { registry, appEntry: ENTRY, showOpenDialog, platform: 'linux' });
    return { handlers, registry, showOpenDialog, unregister };
  }

  it('serves the app window, and removes its two handlers', async () => {
    const { handlers, registry, unregister } = setup();
    expect([...handlers.keys()].sort()).toEqual([IPC_CHOOSE_PATHS_CHANNEL, IPC_GRANT_FILES_CHANNEL].sort());
    const [chosen] = (await handlers.get(IPC_CHOOSE_PATHS_CHANNEL)!(eventFrom(3), 'train-folder')) as {
      handle: string;
    }[];
    expect(registry.resolve(chosen!.handle, 'read', 'window:3')).toEqual({ ok: true, path: '/home/admin/notes' });
    unregister();
    expect(handlers.size).toBe(0);
  });

  it.each([
    ['another page', { url: 'https://evil.example/', parent: null }],
    ['an iframe inside the app', { url: ENTRY, parent: { url: ENTRY } }],
    ['a destroyed frame', null],
  ])('refuses %s: no dialog, no handle', async (_label, frame) => {
    const { handlers, registry, showOpenDialog } = setup();
    await expect(handlers.get(IPC_CHOOSE_PATHS_CHANNEL)!(eventFrom(3, frame), 'train-folder')).rejects.toThrow(
      REFUSED_GRANT,
    );
    await expect(handlers.get(IPC_GRANT_FILES_CHANNEL)!(eventFrom(3, frame), ['/tmp'])).rejects.toThrow(REFUSED_GRANT);
    expect(showOpenDialog).not.toHaveBeenCalled();
    expect(registry.size).toBe(0);
  });
});
