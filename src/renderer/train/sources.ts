/**
 * Where the files of a training come from, the same way on both transports: Electron hands the engine real paths
 * (`window.api.pathForFile`); browser mode reads the files and stages them on the host first.
 */
import { findPreloadApi } from '../bridge/electronBridge';
import { collectEntries, collectFileList, describeEntries, entriesOf, type Collected, type NotCopied } from './collect';
import { stageFiles, type StageProgress } from './stage';

export type SourceProgress = { step: 'reading'; found: number } | ({ step: 'copying' } & StageProgress);

export interface ResolvedSource {
  paths: string[];
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

function pathsSource(label: string, paths: string[]): TrainSource {
  return {
    label,
    resolve: async () => {
      if (!paths.length) throw new EmptySourceError();
      return { paths, notCopied: [] };
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
        return { paths: [], notCopied: collected.notCopied };
      }
      const staged = await stageFiles(collected.files, {
        onProgress: (progress) => onProgress({ step: 'copying', ...progress }),
        signal,
      });
      return {
        paths: staged.paths,
        stagingId: staged.stagingId,
        notCopied: [...collected.notCopied, ...staged.notCopied],
      };
    },
  };
  return source;
}

const topName = (path: string) => path.split(/[\\/]/).filter(Boolean).pop() ?? path;

/** Call during the drop event: the DataTransfer empties once the handler returns. */
export function sourceFromDrop(dataTransfer: DataTransfer): TrainSource | null {
  const api = findPreloadApi();
  if (api) {
    const paths = Array.from(dataTransfer.files)
      .map((file) => api.pathForFile(file))
      .filter(Boolean);
    return paths.length ? pathsSource(describeEntries(paths.map(topName)), paths) : null;
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

/** From "Choose folder…" (`webkitdirectory`) or "Choose files…". */
export function sourceFromInput(list: FileList, kind: 'folder' | 'files'): TrainSource | null {
  const files = Array.from(list);
  if (!files.length) return null;
  const folderName = files[0]!.webkitRelativePath.split('/')[0] || files[0]!.name;
  const label = kind === 'folder' ? folderName : describeEntries(files.map((file) => file.name));
  const api = findPreloadApi();
  if (api) {
    if (kind === 'files') return pathsSource(label, files.map((file) => api.pathForFile(file)).filter(Boolean));
    // One path for the whole folder: the real path of a file minus its place inside the chosen folder.
    const first = files[0]!;
    const full = api.pathForFile(first);
    const inside = first.webkitRelativePath.split('/').slice(1);
    const root = full
      .split(/[\\/]/)
      .slice(0, -inside.length)
      .join(full.includes('\\') ? '\\' : '/');
    return pathsSource(label, root ? [root] : []);
  }
  return stagedSource(label, async () => collectFileList(files));
}
