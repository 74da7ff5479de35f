import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useRef, useState, type DragEvent } from 'react';
import { errorMessage } from '../../bridge/errors';
import { useBridge } from '../../bridge/BridgeContext';
import { WarningIcon } from '../icons';

/**
 * Drop or choose a CSV file, for any import. The page hands the engine a handle, never a path: a host that reads the
 * disk grants one for the dropped file or the one chosen in its dialog; otherwise the page first stages a copy on the
 * host (the same streamed upload training uses), so a big file never travels over the WebSocket. `onOpen` gets the
 * file's name and handle and opens it in the engine; what it throws is shown here.
 */
export function CsvDropZone({
  title,
  hint,
  onOpen,
  inputTestId,
}: {
  title: string;
  /** What the file needs (its columns), under the title. */
  hint?: string;
  onOpen: (name: string, handle: string) => Promise<void>;
  inputTestId?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const host = useBridge().capabilities;

  /** The handle for a dropped file (or one from the page's own file input in browser mode). */
  async function handleFor(file: File): Promise<string> {
    if (host.dropPaths) {
      const [granted] = await host.dropPaths([file]);
      if (!granted) throw new Error('Mentor Admin cannot read this file: drop a file from this computer');
      return granted.handle;
    }
    if (!host.staging) throw new Error('Mentor Admin cannot take files here');
    setBusy(`Copying ${file.name}…`);
    const staged = await host.staging.stage([{ file, relativePath: file.name }]);
    const refused = staged.notCopied[0];
    if (refused || !staged.entries[0]) throw new Error(refused?.reason ?? 'The file could not be copied');
    return staged.entries[0].handle;
  }

  async function openFile(name: string, handle: () => Promise<string>) {
    setError(null);
    try {
      const granted = await handle();
      setBusy(`Opening ${name}…`);
      await onOpen(name, granted);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(null);
      if (input.current) input.current.value = '';
    }
  }

  const take = (file: File | undefined) => file && openFile(file.name, () => handleFor(file));

  /** "Choose a file…": the host's own dialog when it has one; otherwise the page's file input. */
  async function choose() {
    if (!host.pickFiles) return input.current?.click();
    try {
      const [chosen] = await host.pickFiles('import-csv');
      if (chosen) await openFile(chosen.name, async () => chosen.handle);
    } catch (caught) {
      setError(errorMessage(caught));
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
          <Text fw={600}>{title}</Text>
          {hint && (
            <Text size="sm" maw={560}>
              {hint}
            </Text>
          )}
          <Text size="sm" c="dimmed">
            UTF-8, UTF-16 or Windows-1252; commas, semicolons, tabs or pipes. Nothing is sent until you confirm.
          </Text>
          {busy ? (
            <Group gap="xs">
              <Loader size="sm" />
              <Text size="sm">{busy}</Text>
            </Group>
          ) : (
            <Button variant="light" onClick={() => void choose()}>
              Choose a file…
            </Button>
          )}
          <input
            ref={input}
            type="file"
            accept=".csv,.tsv,.txt,text/csv,text/plain"
            aria-label="CSV file"
            data-testid={inputTestId}
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
