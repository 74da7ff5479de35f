import { Button, Code, Group, Stack, Text } from '@mantine/core';
import { useId, useState } from 'react';
import type { GrantedPath } from '../../../shared/transport';
import { useBridge } from '../../bridge/BridgeContext';
import { errorMessage } from '../../bridge/errors';
import { FolderOpenIcon } from './icons';

interface FolderFieldProps {
  /** A folder chosen in the desktop app's dialog since the form opened; null: none chosen. */
  chosen: GrantedPath | null;
  onChoose(folder: GrantedPath | null): void;
  /** Where files go when none is chosen: a schedule's own folder, else the export folder. */
  fallback: string | undefined;
  description?: string;
}

/**
 * Where an export's file goes. The page never types a path: the desktop app chooses a folder in its own dialog and
 * hands the page a handle for it; browser mode writes into the export folder, and the page downloads the files.
 */
export function FolderField({ chosen, onChoose, fallback, description }: FolderFieldProps) {
  const labelId = useId();
  const [error, setError] = useState<string | null>(null);
  const pickFiles = useBridge().capabilities.pickFiles;
  const shown = chosen?.path ?? fallback;

  async function choose() {
    setError(null);
    try {
      if (!pickFiles) return;
      const [folder] = await pickFiles('export-folder');
      if (folder) onChoose(folder);
    } catch (caught) {
      setError(errorMessage(caught));
    }
  }

  return (
    <Stack gap={4} role="group" aria-labelledby={labelId} data-testid="export-folder">
      <Text size="sm" fw={500} id={labelId}>
        Folder
      </Text>
      <Group gap="xs" wrap="nowrap" align="center">
        <Code
          title={shown}
          style={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
        >
          {shown ?? '…'}
        </Code>
        {pickFiles ? (
          <>
            <Button
              size="xs"
              variant="default"
              leftSection={<FolderOpenIcon size={14} />}
              onClick={() => void choose()}
            >
              Choose folder…
            </Button>
            {chosen ? (
              <Button size="xs" variant="subtle" onClick={() => onChoose(null)}>
                Reset
              </Button>
            ) : null}
          </>
        ) : null}
      </Group>
      <Text size="xs" c="dimmed">
        {pickFiles
          ? (description ?? 'On this computer.')
          : 'Browser mode writes exports to this folder on this computer; download the files from the export history.'}
      </Text>
      {error ? (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}
