/**
 * Where the files of a training come from, the same way on both transports: the page ends up with handles, never
 * paths. Electron's main process grants them for what was dropped or chosen in its dialog
 * (`window.api.grantFiles` / `choosePaths`); browser mode reads the files and stages them on the host first.
 */
import type { ChoosePurpose, GrantedPath } from '../../shared/transport';
import { findPreloadApi } from '../bridge/electronBridge';
import { collectEntries, collectFileList, describeEntries, entriesOf, type Collected, type NotCopied } from './collect';
import { stageFiles, type StageProgress } from './stage';

export type SourceProgress = { step: 'reading'; found: number } | ({ step: 'copying' } & StageProgress);

export interface ResolvedSource {
  /** What `train.preview` takes as `paths`: handles the shell gave the page. */
  handles: string[];
  /** Browser mode: the staging to discard if the admin does not train. */
  stagingId?: string;
  notCopied: NotCopied[];
}

export interface TrainSource {
  /** What was dropped or chosen, in words: "Course notes", "3 items". */
  label: string;
  resolve(onProgress: (progress: SourceProgress) => void, signal: AbortSignal): Promise<ResolvedSource>;
}

export class EmptySourceError extends Error {
  override name = 'EmptySourceError';
  constructor() {
    super('There is nothing to train: the folder is empty.');
  }
}

/** Electron: files and folders the main process granted (now, or once the dropped files reach it). */
function grantedSource(label: string, grant: () => Promise<GrantedPath[]>): TrainSource {
  return {
    label,
    resolve: async () => {
      const granted = await grant();
      if (!granted.length) throw new EmptySourceError();
      return { handles: granted.map((entry) => entry.handle), notCopied: [] };
    },
  };
}

function stagedSource(
  label: string,
  collect: (onFound: (found: number) => void, signal: AbortSignal) => Promise<Collected>,
) {
  const source: TrainSource = {
    label,
    async resolve(onProgress, signal) {
      const collected = await collect((found) => onProgress({ step: 'reading', found }), signal);
      if (!collected.files.length) {
        if (!collected.notCopied.length) throw new EmptySourceError();
        return { handles: [], notCopied: collected.notCopied };
      }
      const staged = await stageFiles(collected.files, {
        onProgress: (progress) => onProgress({ step: 'copying', ...progress }),
        signal,
      });
      return {
        handles: staged.entries.map((entry) => entry.handle),
        stagingId: staged.stagingId,
        notCopied: [...collected.notCopied, ...staged.notCopied],
      };
    },
  };
  return source;
}

/** Call during the drop event: the DataTransfer empties once the handler returns. */
export function sourceFromDrop(dataTransfer: DataTransfer): TrainSource | null {
  const api = findPreloadApi();
  if (api) {
    // The File objects outlive the event; the main process learns their paths from the preload.
    const files = Array.from(dataTransfer.files);
    if (!files.length) return null;
    return grantedSource(describeEntries(files.map((file) => file.name)), () => api.grantFiles(files));
  }
  const entries = entriesOf(dataTransfer);
  if (!entries.length) {
    // No entry API for these items (a synthetic or restricted drop): plain files still work, folders do not.
    const files = Array.from(dataTransfer.files);
    if (!files.length) return null;
    const label = files.length === 1 ? files[0]!.name : `${files.length} files`;
    return stagedSource(label, async () => collectFileList(files));
  }
  return stagedSource(describeEntries(entries.map((entry) => entry.name)), (onFound, signal) =>
    collectEntries(entries, onFound, signal),
  );
}

/** Browser mode: from "Choose folder…" (`webkitdirectory`) or "Choose files…". */
export function sourceFromInput(list: FileList, kind: 'folder' | 'files'): TrainSource | null {
  const files = Array.from(list);
  if (!files.length) return null;
  const folderName = files[0]!.webkitRelativePath.split('/')[0] || files[0]!.name;
  const label = kind === 'folder' ? folderName : describeEntries(files.map((file) => file.name));
  return stagedSource(label, async () => collectFileList(files));
}

/**
 * Electron: "Choose folder…" and "Choose files…" open the main process's dialog; null when it is not the desktop
 * app (the page's own file inputs then) or the admin cancelled.
 */
export async function sourceFromDialog(kind: 'folder' | 'files'): Promise<TrainSource | null> {
  const api = findPreloadApi();
  if (!api) return null;
  const purpose: ChoosePurpose = kind === 'folder' ? 'train-folder' : 'train-files';
  const granted = await api.choosePaths(purpose);
  if (!granted.length) return null;
  return grantedSource(describeEntries(granted.map((entry) => entry.name)), async () => granted);
}
