/**
 * Files and folders reach the engine from the desktop app only as handles (src/main/handles): the main process
 * shows the open/folder dialog, or takes the paths of files the admin dropped (read by the preload with
 * `webUtils.getPathForFile`, which answers a path only for a real file the admin dragged or picked), records them
 * and answers the page handles. The page never sends a path; the contract's IPC handlers turn handles back into
 * paths (ipc-bridge.ts). Only types come from `electron`, so tests drive this with fakes.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { IpcMain, IpcMainInvokeEvent, OpenDialogOptions, OpenDialogReturnValue } from 'electron';
import { AUDIO_EXTENSIONS } from '../../shared/audio';
import type { PathAccess } from '../../shared/contract';
import {
  ChoosePurpose,
  IPC_CHOOSE_PATHS_CHANNEL,
  IPC_GRANT_FILES_CHANNEL,
  type GrantedPath,
} from '../../shared/transport';
import type { HandleRegistry } from '../handles';
import { isTrustedFrame, ownerOf } from './ipc-bridge';
import { isPlainLocalPath } from './policies';

/** As many as `train.preview` takes. */
const MAX_DROPPED = 10_000;

export interface DialogSpec {
  access: PathAccess;
  options: OpenDialogOptions;
}

/** The dialog for each purpose: what it may pick and what the engine may do with it. */
export function dialogFor(purpose: ChoosePurpose): DialogSpec {
  switch (purpose) {
    case 'train-folder':
      return { access: 'read', options: { title: 'Choose a folder to train', properties: ['openDirectory'] } };
    case 'train-files':
      return {
        access: 'read',
        options: { title: 'Choose files to train', properties: ['openFile', 'multiSelections'] },
      };
    case 'import-csv':
      return {
        access: 'read',
        options: {
          title: 'Choose a CSV file of people to invite',
          properties: ['openFile'],
          filters: [
            { name: 'CSV files', extensions: ['csv', 'tsv', 'txt'] },
            { name: 'All files', extensions: ['*'] },
          ],
        },
      };
    case 'audio-files':
      return {
        access: 'read',
        options: {
          title: 'Choose audio files',
          properties: ['openFile', 'multiSelections'],
          filters: [
            { name: 'Audio files', extensions: [...AUDIO_EXTENSIONS] },
            { name: 'All files', extensions: ['*'] },
          ],
        },
      };
    case 'export-folder':
      return {
        access: 'write',
        options: { title: 'Choose where exports go', properties: ['openDirectory', 'createDirectory'] },
      };
  }
}

export interface PathGrantDeps {
  registry: HandleRegistry;
  appEntry: string;
  /** `dialog.showOpenDialog` attached to the sender's window. */
  showOpenDialog(event: IpcMainInvokeEvent, options: OpenDialogOptions): Promise<OpenDialogReturnValue>;
  platform?: string;
}

export const REFUSED_GRANT = 'Refused: the request did not come from the Mentor Admin window';

const granted = (registry: HandleRegistry, path: string, access: PathAccess, owner: string): GrantedPath => ({
  handle: registry.issue(path, access, owner),
  name: basename(path) || path,
  path,
});

/**
 * Handles for dropped files: only plain absolute local paths of files or folders that exist (never a network
 * share the engine would connect to), read access only. Anything else in the list is left out.
 */
export async function grantDropped(
  registry: HandleRegistry,
  owner: string,
  paths: unknown,
  platform: string = process.platform,
): Promise<GrantedPath[]> {
  if (!Array.isArray(paths) || paths.length > MAX_DROPPED) throw new Error(`Drop at most ${MAX_DROPPED} items`);
  const answer: GrantedPath[] = [];
  for (const path of paths) {
    if (typeof path !== 'string' || !isPlainLocalPath(path, platform)) continue;
    const info = await stat(path).catch(() => null);
    if (!info || !(info.isFile() || info.isDirectory())) continue;
    answer.push(granted(registry, path, 'read', owner));
  }
  return answer;
}

/** Shows the dialog for `purpose` and answers handles for what was chosen (none when cancelled). */
export async function grantChosen(
  deps: Pick<PathGrantDeps, 'registry' | 'showOpenDialog'>,
  event: IpcMainInvokeEvent,
  purpose: unknown,
): Promise<GrantedPath[]> {
  const parsed = ChoosePurpose.safeParse(purpose);
  if (!parsed.success) throw new Error('Unknown dialog');
  const spec = dialogFor(parsed.data);
  const result = await deps.showOpenDialog(event, spec.options);
  if (result.canceled) return [];
  return result.filePaths.map((path) => granted(deps.registry, path, spec.access, ownerOf(event)));
}

/** Registers the two handlers and returns a function that removes them. */
export function registerPathGrants(ipc: Pick<IpcMain, 'handle' | 'removeHandler'>, deps: PathGrantDeps): () => void {
  ipc.handle(IPC_GRANT_FILES_CHANNEL, (event, paths: unknown) => {
    if (!isTrustedFrame(event, deps.appEntry)) return Promise.reject(new Error(REFUSED_GRANT));
    return grantDropped(deps.registry, ownerOf(event), paths, deps.platform);
  });
  ipc.handle(IPC_CHOOSE_PATHS_CHANNEL, (event, purpose: unknown) => {
    if (!isTrustedFrame(event, deps.appEntry)) return Promise.reject(new Error(REFUSED_GRANT));
    return grantChosen(deps, event, purpose);
  });
  return () => {
    ipc.removeHandler(IPC_GRANT_FILES_CHANNEL);
    ipc.removeHandler(IPC_CHOOSE_PATHS_CHANNEL);
  };
}
