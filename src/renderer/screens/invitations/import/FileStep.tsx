import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useRef, useState, type DragEvent } from 'react';
import { errorMessage } from '../../../bridge/errors';
import { findPreloadApi } from '../../../bridge/electronBridge';
import { WarningIcon } from '../../../components/icons';
import { useMutationCall } from '../../../queries/useCall';
import { stageFiles } from '../../../train/stage';
import { updateWizard } from '../wizardStore';

/**
 * Drop or choose a CSV file. Electron hands the engine the file's real path; browser mode first copies it to the
 * host's staging folder (the same streamed upload training uses), so a big file never travels over the WebSocket.
 */
export function FileStep({ profileId }: { profileId: string | undefined }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const open = useMutationCall('invitations.importOpen');

  async function take(file: File | undefined) {
    if (!file) return;
    setError(null);
    try {
      let path: string;
      const preload = findPreloadApi();
      if (preload) path = preload.pathForFile(file);
      else {
        setBusy(`Copying ${file.name}…`);
        const staged = await stageFiles([{ file, relativePath: file.name }]);
        const refused = staged.notCopied[0];
        if (refused || !staged.paths[0]) throw new Error(refused?.reason ?? 'The file could not be copied');
        path = staged.paths[0];
      }
      setBusy(`Opening ${file.name}…`);
      const draft = await open.mutateAsync({ ...(profileId && { profileId }), path });
      updateWizard({ importId: draft.id, step: 'columns', jobId: null });
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(null);
      if (input.current) input.current.value = '';
    }
  }

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    void take(event.dataTransfer.files[0]);
  };

  return (
    <Stack gap="md">
      <div
        role="region"
        aria-label="Drop a CSV file here"
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        style={{
          border: `2px dashed var(--mantine-color-${over ? 'blue-5' : 'default-border'})`,
          borderRadius: 12,
          padding: 40,
          textAlign: 'center',
        }}
      >
        <Stack gap="sm" align="center">
          <Text fw={600}>Drop a CSV file of people to invite</Text>
          <Text size="sm" c="dimmed">
            UTF-8, UTF-16 or Windows-1252; commas, semicolons, tabs or pipes. Nothing is sent until you confirm.
          </Text>
          {busy ? (
            <Group gap="xs">
              <Loader size="sm" />
              <Text size="sm">{busy}</Text>
            </Group>
          ) : (
            <Button variant="light" onClick={() => input.current?.click()}>
              Choose a file…
            </Button>
          )}
          <input
            ref={input}
            type="file"
            accept=".csv,.tsv,.txt,text/csv,text/plain"
            aria-label="CSV file"
            data-testid="invite-file-input"
            hidden
            onChange={(event) => void take(event.currentTarget.files?.[0])}
          />
        </Stack>
      </div>
      {error && (
        <Alert color="red" icon={<WarningIcon />} title="This file cannot be imported">
          {error}
        </Alert>
      )}
    </Stack>
  );
}
