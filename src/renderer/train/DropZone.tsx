import { Button, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { useRef, type ChangeEvent } from 'react';
import { SUPPORTED_EXTENSIONS } from '../../shared/contract';
import { useBridge } from '../bridge/BridgeContext';
import { notifyError } from '../components/notify';
import { FileIcon, FolderIcon, UploadIcon } from '../components/icons';
import { sourceFromDialog, sourceFromInput } from './sources';
import { useTrainFlow, type MentorTarget } from './TrainFlowContext';
import { useMentorDropTarget } from './useMentorDropTarget';

interface DropZoneProps {
  mentor: MentorTarget;
  /** A slimmer version for a page that already lists documents. */
  compact?: boolean;
}

/** "Add documents…": drop files or folders here, or choose them; either way a preview comes first. */
export function DropZone({ mentor, compact = false }: DropZoneProps) {
  const { begin } = useTrainFlow();
  const { over, props } = useMentorDropTarget(mentor);
  const folderInput = useRef<HTMLInputElement | null>(null);
  const filesInput = useRef<HTMLInputElement | null>(null);
  const host = useBridge().capabilities;

  /** The host's own dialog when it has one (the paths stay with the host); otherwise the page's file inputs. */
  function choose(kind: 'folder' | 'files') {
    if (!host.pickFiles) {
      (kind === 'folder' ? folderInput : filesInput).current?.click();
      return;
    }
    sourceFromDialog(host.pickFiles, kind).then(
      (source) => source && begin(source, mentor),
      (error: unknown) => notifyError('The dialog could not open', error),
    );
  }

  function chosen(kind: 'folder' | 'files') {
    return (event: ChangeEvent<HTMLInputElement>) => {
      const source = event.currentTarget.files && sourceFromInput(host, event.currentTarget.files, kind);
      // Let the same folder be chosen again later.
      event.currentTarget.value = '';
      if (source) begin(source, mentor);
    };
  }

  const title = over ? `Drop to preview training for ${mentor.name}` : 'Drop files or folders here';
  const hint = `${SUPPORTED_EXTENSIONS.join(', ')} · folders are read to any depth · hidden and system files are skipped · you see a preview before anything is sent`;
  const choosers = (
    <Group gap="xs">
      <Button variant="default" size="sm" leftSection={<FolderIcon size={16} />} onClick={() => choose('folder')}>
        Choose folder…
      </Button>
      <Button variant="default" size="sm" leftSection={<FileIcon size={16} />} onClick={() => choose('files')}>
        Choose files…
      </Button>
    </Group>
  );

  return (
    <Paper
      {...props}
      radius="md"
      p={compact ? 'md' : 'xl'}
      data-testid="drop-zone"
      style={{
        border: `1.5px dashed ${over ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-default-border)'}`,
        background: over ? 'var(--mantine-primary-color-light)' : 'var(--mantine-color-default-hover)',
        transition: 'background 120ms, border-color 120ms',
      }}
    >
      {compact ? (
        <Group justify="space-between" gap="lg" wrap="wrap">
          <Group gap="md" wrap="nowrap">
            <ThemeIcon size={36} radius="md" variant="light" aria-hidden="true">
              <UploadIcon size={20} />
            </ThemeIcon>
            <Stack gap={2}>
              <Text fw={600} size="sm">
                {title}
              </Text>
              <Text size="xs" c="dimmed">
                {hint}
              </Text>
            </Stack>
          </Group>
          {choosers}
        </Group>
      ) : (
        <Stack align="center" gap="xs" py="md">
          <ThemeIcon size={48} radius="xl" variant="light" aria-hidden="true">
            <UploadIcon size={26} />
          </ThemeIcon>
          <Text fw={600}>{title}</Text>
          <Text size="xs" c="dimmed" ta="center" maw={520}>
            {hint}
          </Text>
          <Text size="xs" c="dimmed">
            or
          </Text>
          {choosers}
        </Stack>
      )}
      <input
        ref={(element) => {
          folderInput.current = element;
          // Not in React's attribute list; the browser reads it at click time.
          element?.setAttribute('webkitdirectory', '');
        }}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        aria-hidden="true"
        onChange={chosen('folder')}
        data-testid="choose-folder-input"
      />
      <input ref={filesInput} type="file" multiple hidden tabIndex={-1} aria-hidden="true" onChange={chosen('files')} />
    </Paper>
  );
}
