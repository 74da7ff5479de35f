import type { MantineColor } from '@mantine/core';
import type { FileClass, Preview, SkipKind } from '../../shared/contract';

export interface FileClassInfo {
  label: string;
  color: MantineColor;
  /** One line under the count in the preview. */
  description: string;
  /** Whether files of this class are sent when the admin confirms. */
  sent: boolean;
}

/** The preview's classes, in the order the admin reads them: what is sent first, then what is not and why. */
export const FILE_CLASS_INFO: Record<FileClass, FileClassInfo> = {
  new: { label: 'New', color: 'teal', description: 'Not on this mentor yet', sent: true },
  changed: { label: 'Changed', color: 'blue', description: 'Replaces an older version', sent: true },
  unchanged: { label: 'Unchanged', color: 'gray', description: 'Same content already trained', sent: false },
  unsupported: { label: 'Unsupported', color: 'orange', description: 'Type not known to train', sent: false },
  too_large: { label: 'Too large', color: 'red', description: 'Over the upload limit', sent: false },
  skipped: { label: 'Skipped', color: 'gray', description: 'Hidden, system, empty or left-out files', sent: false },
  unreadable: { label: 'Unreadable', color: 'red', description: 'Could not be read', sent: false },
};

/** Each reason for skipping in its own words: [one file, several files, in a list of several reasons]. */
const SKIP_WORDS: Record<SkipKind, [string, string, string]> = {
  hidden: ['Hidden file', 'Hidden files', 'hidden'],
  system: ['System file', 'System files', 'system'],
  empty: ['Empty file', 'Empty files', 'empty'],
  excluded: ['Left out by your patterns', 'Left out by your patterns', 'by pattern'],
  duplicate: ['Dropped twice', 'Dropped twice', 'dropped twice'],
  folder: ['Folder not read (tools, hidden)', 'Folders not read (tools, hidden)', 'folder'],
};

/** What the Skipped card says: the one reason ("Empty file"), or each with its count ("2 hidden · 1 empty"). */
export function skippedDescription(skipped: Preview['skipped']): string {
  if (skipped.length === 0) return FILE_CLASS_INFO.skipped.description;
  if (skipped.length === 1) {
    const { kind, files } = skipped[0]!;
    return SKIP_WORDS[kind][files === 1 ? 0 : 1];
  }
  return skipped
    .map(({ kind, files }) => `${files} ${SKIP_WORDS[kind][2]}${kind === 'folder' && files > 1 ? 's' : ''}`)
    .join(' · ');
}
