/**
 * Browser mode: what the page itself can read of a drop or a file input. Dropped folders are walked with the
 * File and Directory Entries API (`webkitGetAsEntry`), nested to any depth; chosen folders arrive as a flat list
 * whose `webkitRelativePath` keeps the structure.
 */

import type { NotCopied, PickedFile } from '../bridge/types';

export interface Collected {
  files: PickedFile[];
  notCopied: NotCopied[];
}

/** Folders that are never worth copying: the engine would only skip everything inside them. */
const HEAVY_FOLDERS = new Set(['.git', 'node_modules']);
const HEAVY_REASON = 'Version-control and dependency folders are skipped';

/** Must run during the drop event itself: a DataTransfer is emptied as soon as the handler returns. */
export function entriesOf(dataTransfer: DataTransfer): FileSystemEntry[] {
  const entries: FileSystemEntry[] = [];
  for (const item of Array.from(dataTransfer.items)) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry();
    if (entry) entries.push(entry);
  }
  return entries;
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** `readEntries` answers in batches (100 in Chromium) until it answers an empty one. */
async function childrenOf(entry: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = entry.createReader();
  const children: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) return children;
    children.push(...batch);
  }
}

const relativeOf = (entry: FileSystemEntry) => entry.fullPath.replace(/^\/+/, '');

/** Walks dropped entries depth-first; `onFile` reports how many files were found so far. */
export async function collectEntries(
  entries: FileSystemEntry[],
  onFile?: (found: number) => void,
  signal?: AbortSignal,
): Promise<Collected> {
  const collected: Collected = { files: [], notCopied: [] };
  const visit = async (entry: FileSystemEntry): Promise<void> => {
    signal?.throwIfAborted();
    const relativePath = relativeOf(entry);
    if (entry.isDirectory) {
      if (HEAVY_FOLDERS.has(entry.name)) {
        collected.notCopied.push({ relativePath: `${relativePath}/`, reason: HEAVY_REASON });
        return;
      }
      let children: FileSystemEntry[];
      try {
        children = await childrenOf(entry as FileSystemDirectoryEntry);
      } catch {
        collected.notCopied.push({ relativePath: `${relativePath}/`, reason: 'The folder could not be read' });
        return;
      }
      for (const child of children) await visit(child);
      return;
    }
    try {
      collected.files.push({ file: await fileOf(entry as FileSystemFileEntry), relativePath });
      onFile?.(collected.files.length);
    } catch {
      collected.notCopied.push({ relativePath, reason: 'The file could not be read' });
    }
  };
  for (const entry of entries) await visit(entry);
  return collected;
}

/** Files from `<input type=file>`: with `webkitdirectory` each carries its path inside the chosen folder. */
export function collectFileList(list: FileList | readonly File[]): Collected {
  const collected: Collected = { files: [], notCopied: [] };
  const heavySeen = new Set<string>();
  for (const file of Array.from(list)) {
    const relativePath = file.webkitRelativePath || file.name;
    const segments = relativePath.split('/');
    const heavyAt = segments.findIndex((segment, index) => index < segments.length - 1 && HEAVY_FOLDERS.has(segment));
    if (heavyAt >= 0) {
      const folder = `${segments.slice(0, heavyAt + 1).join('/')}/`;
      if (!heavySeen.has(folder)) collected.notCopied.push({ relativePath: folder, reason: HEAVY_REASON });
      heavySeen.add(folder);
      continue;
    }
    collected.files.push({ file, relativePath });
  }
  return collected;
}

/** "Course notes" for one folder, "notes.md" for one file, "3 items" otherwise. */
export function describeEntries(names: string[]): string {
  if (names.length === 1) return names[0]!;
  return `${names.length} items`;
}
