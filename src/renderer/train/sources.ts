/**
 * Where the files of a training come from, whatever the host: the page ends up with handles, never paths. A host
 * that reads the admin's disk grants them for what was dropped or chosen in its dialog (`dropPaths`, `pickFiles`);
 * otherwise the page reads the files and stages copies on the host first (`staging`).
 */
import type { ChoosePurpose, GrantedPath } from '../../shared/transport';
import type { FileStaging, HostCapabilities, NotCopied, StageProgress } from '../bridge/types';
import { collectEntries, collectFileList, describeEntries, entriesOf, type Collected } from './collect';

export type SourceProgress = { step: 'reading'; found: number } | ({ step: 'copying' } & StageProgress);

export interface ResolvedSource {
  /** What `train.preview` takes as `paths`: handles the shell gave the page. */
  handles: string[];
  /** Forgets the staged copies, when the admin does not train them. */
  discard?: () => void;
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

/** Files and folders the host granted (now, or once the dropped files reach it). */
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
  staging: FileStaging,
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
      const staged = await staging.stage(collected.files, {
        onProgress: (progress) => onProgress({ step: 'copying', ...progress }),
        signal,
      });
      return {
        handles: staged.entries.map((entry) => entry.handle),
        discard: () => void staging.discard(staged.stagingId),
        notCopied: [...collected.notCopied, ...staged.notCopied],
      };
    },
  };
  return source;
}

/** Call during the drop event: the DataTransfer empties once the handler returns. */
export function sourceFromDrop(host: HostCapabilities, dataTransfer: DataTransfer): TrainSource | null {
  const { dropPaths, staging } = host;
  if (dropPaths) {
    // The File objects outlive the event; the host learns their paths itself.
    const files = Array.from(dataTransfer.files);
    if (!files.length) return null;
    return grantedSource(describeEntries(files.map((file) => file.name)), () => dropPaths(files));
  }
  if (!staging) return null;
  const entries = entriesOf(dataTransfer);
  if (!entries.length) {
    // No entry API for these items (a synthetic or restricted drop): plain files still work, folders do not.
    const files = Array.from(dataTransfer.files);
    if (!files.length) return null;
    const label = files.length === 1 ? files[0]!.name : `${files.length} files`;
    return stagedSource(staging, label, async () => collectFileList(files));
  }
  return stagedSource(staging, describeEntries(entries.map((entry) => entry.name)), (onFound, signal) =>
    collectEntries(entries, onFound, signal),
  );
}

/** From the page's own "Choose folder…" (`webkitdirectory`) or "Choose files…", when the host has no dialog. */
export function sourceFromInput(host: HostCapabilities, list: FileList, kind: 'folder' | 'files'): TrainSource | null {
  const files = Array.from(list);
  if (!files.length || !host.staging) return null;
  const folderName = files[0]!.webkitRelativePath.split('/')[0] || files[0]!.name;
  const label = kind === 'folder' ? folderName : describeEntries(files.map((file) => file.name));
  return stagedSource(host.staging, label, async () => collectFileList(files));
}

/** "Choose folder…" and "Choose files…" in the host's own dialog; null when the admin cancelled. */
export async function sourceFromDialog(
  pickFiles: NonNullable<HostCapabilities['pickFiles']>,
  kind: 'folder' | 'files',
): Promise<TrainSource | null> {
  const purpose: ChoosePurpose = kind === 'folder' ? 'train-folder' : 'train-files';
  const granted = await pickFiles(purpose);
  if (!granted.length) return null;
  return grantedSource(describeEntries(granted.map((entry) => entry.name)), async () => granted);
}
