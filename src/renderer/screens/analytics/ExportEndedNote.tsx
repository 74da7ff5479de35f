import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { ExportInfo } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import type { Bridge } from '../../bridge/types';
import { fileNameOf } from '../../lib/paths';
import { describeFile, whereSaved } from './ExportStatus';
import { DownloadIcon, FolderOpenIcon } from './icons';

/**
 * The in-app note of a finished export: its rows and size, where the file is, and what to do with it (Download where
 * the host hands files to the page, Show in folder where it reveals them). Notes are drawn outside the app's
 * providers: the bridge comes in.
 */
export function ExportEndedNote({ info, bridge, jobHref }: { info: ExportInfo; bridge: Bridge; jobHref: string }) {
  const download = bridge.capabilities.revealFile ? undefined : bridge.capabilities.downloadFile;
  const [said, setSaid] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const act = () => {
    setBusy(true);
    setSaid(null);
    const done = download
      ? download(info.id, fileNameOf(info.path)).then(() => 'Downloaded.')
      : bridge
          .call('analytics.reveal', { id: info.id })
          .then((answer) => (answer.shown ? 'Opened in the file manager.' : `The file is in ${answer.folder}`));
    done.then(setSaid, (e: unknown) => setSaid(errorMessage(e))).finally(() => setBusy(false));
  };
  return (
    <Stack gap={4} data-testid="export-note">
      <Text size="sm">
        {info.title} — {describeFile(info)}
      </Text>
      <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }} data-testid="export-note-where">
        {whereSaved(info, bridge.capabilities)}
      </Text>
      <Group gap="xs">
        <Button
          size="compact-xs"
          variant="light"
          loading={busy}
          leftSection={download ? <DownloadIcon size={12} /> : <FolderOpenIcon size={12} />}
          onClick={act}
        >
          {download ? 'Download' : 'Show in folder'}
        </Button>
        <Anchor size="xs" href={jobHref}>
          View job
        </Anchor>
      </Group>
      {said ? (
        <Text size="xs" c="dimmed" role="status">
          {said}
        </Text>
      ) : null}
    </Stack>
  );
}
