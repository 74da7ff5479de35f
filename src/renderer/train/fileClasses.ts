import type { MantineColor } from '@mantine/core';
import type { FileClass } from '../../shared/contract';

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
  unsupported: { label: 'Unsupported', color: 'orange', description: 'Type the platform cannot train', sent: false },
  too_large: { label: 'Too large', color: 'red', description: 'Over the upload limit', sent: false },
  skipped: { label: 'Skipped', color: 'gray', description: 'Hidden and system files', sent: false },
  unreadable: { label: 'Unreadable', color: 'red', description: 'Could not be read', sent: false },
};
