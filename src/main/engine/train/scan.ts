/**
 * Walks dropped files and folders: a few folders are read at once (one `readdir` per folder, entries typed by the
 * file system, so no file is stat'ed here: sizes come from the hashing pass that opens them anyway). Symlinks are
 * followed, but a link back into a folder being walked is reported as a loop instead of being entered; a folder
 * reached twice is walked once. Hidden and system folders (.git, node_modules, …) are reported once and not walked.
 */
import type { Dirent, Stats } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, sep } from 'node:path';
import { skippedFolderReason } from './classify';

export interface ScanEntry {
  /** Absolute path. */
  path: string;
  /** '/'-separated, starting with the dropped folder's name (or the dropped file's name). */
  relativePath: string;
  name: string;
  /** 'file' is a regular file (or a link to one) still to classify; the others are final. */
  kind: 'file' | 'skipped' | 'unreadable';
  reason: string | null;
  /** True for a folder reported as a whole (skipped or unreadable). */
  folder: boolean;
}

export interface ScanRoot {
  path: string;
  stats: Stats;
}

interface Frame {
  path: string;
  relativePath: string;
  /** dev:ino, when already known (links are stat'ed before they are entered). */
  id: string | null;
  parent: Frame | null;
}

export interface ScanOptions {
  /** Folders read at once. */
  concurrency?: number;
  signal?: AbortSignal;
}

const idOf = (stats: Stats) => `${stats.dev}:${stats.ino}`;

/** Why a path cannot be read, in words. */
export function unreadableReason(error: unknown, what: 'file' | 'folder' = 'file'): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'ENOENT':
      return what === 'folder' ? 'Folder vanished while scanning' : 'File vanished while scanning';
    case 'EACCES':
    case 'EPERM':
      return 'Permission denied';
    case 'ELOOP':
      return 'Symlink loop';
    case 'EISDIR':
      return 'Is a folder';
    case 'EBUSY':
      return 'The file is locked by another program';
    default:
      return `Could not be read (${code ?? (error instanceof Error ? error.message : String(error))})`;
  }
}

function specialReason(entry: Dirent | Stats): string | null {
  if (entry.isFIFO()) return 'Not a regular file (named pipe)';
  if (entry.isSocket()) return 'Not a regular file (socket)';
  if (entry.isCharacterDevice() || entry.isBlockDevice()) return 'Not a regular file (device)';
  return null;
}

/**
 * Walks the roots one after the other (so when two dropped folders share a name, the first one wins), calling
 * `onEntries` with each folder's entries and the index of its root. It may return a promise to slow the walk down
 * (backpressure).
 */
export async function scanRoots(
  roots: ScanRoot[],
  onEntries: (entries: ScanEntry[], rootIndex: number) => void | Promise<void>,
  options: ScanOptions = {},
): Promise<void> {
  const seen = new Map<string, string>();
  for (const [rootIndex, root] of roots.entries()) {
    const onBatch = (entries: ScanEntry[]) => onEntries(entries, rootIndex);
    options.signal?.throwIfAborted();
    const name = basename(root.path);
    if (root.stats.isDirectory()) {
      await walk(
        { path: root.path, relativePath: name, id: idOf(root.stats), parent: null },
        seen,
        onBatch,
        options.concurrency ?? 4,
        options.signal,
      );
    } else {
      const special = specialReason(root.stats);
      await onBatch([
        {
          path: root.path,
          relativePath: name,
          name,
          kind: special ? 'unreadable' : 'file',
          reason: special,
          folder: false,
        },
      ]);
    }
  }
}

async function walk(
  root: Frame,
  seen: Map<string, string>,
  onBatch: (entries: ScanEntry[]) => void | Promise<void>,
  concurrency: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const stack: Frame[] = [root];
  // Folders reached through links wait until every real folder is walked, so a folder that is both linked and
  // present is always reported under its real path.
  const linked: Frame[] = [];
  let active = 0;
  await new Promise<void>((resolve, reject) => {
    let failed = false;
    const pump = () => {
      if (failed) return;
      if (!stack.length && !active && linked.length) stack.push(...linked.splice(0).reverse());
      if (!stack.length && !active) return resolve();
      while (active < concurrency && stack.length) {
        const frame = stack.pop()!;
        active++;
        visit(frame, seen, onBatch, signal).then(
          (children) => {
            active--;
            for (const child of children) (child.id ? linked : stack).push(child);
            pump();
          },
          (error: unknown) => {
            failed = true;
            reject(error);
          },
        );
      }
    };
    pump();
  });
}

/** Reads one folder; reports its entries and answers the folders to walk next. */
async function visit(
  frame: Frame,
  seen: Map<string, string>,
  onBatch: (entries: ScanEntry[]) => void | Promise<void>,
  signal: AbortSignal | undefined,
): Promise<Frame[]> {
  signal?.throwIfAborted();
  const folderEntry = (kind: 'skipped' | 'unreadable', reason: string): ScanEntry => ({
    path: frame.path,
    relativePath: frame.relativePath,
    name: basename(frame.path),
    kind,
    reason,
    folder: true,
  });
  let entries: Dirent[];
  try {
    // The folder's identity (for loops) and its entries, read side by side.
    const [dirStats, dirEntries] = await Promise.all([
      frame.id ? null : stat(frame.path),
      readdir(frame.path, { withFileTypes: true }),
    ]);
    entries = dirEntries;
    const id = frame.id ?? idOf(dirStats!);
    const earlier = seen.get(id);
    if (earlier !== undefined) {
      await onBatch([folderEntry('skipped', `Same folder as "${earlier}" (reached twice)`)]);
      return [];
    }
    seen.set(id, frame.relativePath);
    frame.id = id;
  } catch (error) {
    await onBatch([folderEntry('unreadable', unreadableReason(error, 'folder'))]);
    return [];
  }

  const batch: ScanEntry[] = [];
  const children: Frame[] = [];
  const prefix = frame.path.endsWith(sep) ? frame.path : frame.path + sep;
  for (const entry of entries) {
    const name = entry.name;
    const path = prefix + name;
    const relativePath = `${frame.relativePath}/${name}`;
    let kind: Dirent | Stats = entry;
    let linkedId: string | null = null;
    if (entry.isSymbolicLink() || !(entry.isFile() || entry.isDirectory() || specialReason(entry))) {
      // A link (or a file system that does not type its entries): look at what it points to.
      try {
        kind = await stat(path);
        linkedId = idOf(kind);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const reason =
          code === 'ENOENT' && entry.isSymbolicLink() ? 'Broken link (its target is missing)' : unreadableReason(error);
        batch.push({ path, relativePath, name, kind: 'unreadable', reason, folder: false });
        continue;
      }
    }
    if (kind.isDirectory()) {
      const skipped = skippedFolderReason(name);
      if (skipped) {
        batch.push({ path, relativePath, name, kind: 'skipped', reason: skipped, folder: true });
        continue;
      }
      if (linkedId) {
        const ancestor = ancestorWithId(frame, linkedId);
        if (ancestor) {
          const reason = `Symlink loop: points back to "${ancestor.relativePath}"`;
          batch.push({ path, relativePath, name, kind: 'skipped', reason, folder: true });
          continue;
        }
      }
      children.push({ path, relativePath, id: linkedId, parent: frame });
      continue;
    }
    const special = specialReason(kind);
    if (special) {
      batch.push({ path, relativePath, name, kind: 'unreadable', reason: special, folder: false });
      continue;
    }
    batch.push({ path, relativePath, name, kind: 'file', reason: null, folder: false });
  }
  if (batch.length) await onBatch(batch);
  return children;
}

function ancestorWithId(frame: Frame | null, id: string): Frame | null {
  for (let at = frame; at; at = at.parent) if (at.id === id) return at;
  return null;
}
