import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { ExportInfo } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import type { Bridge } from '../../bridge/types';
import { downloadExport, fileNameOf } from './download';
import { describeFile, whereSaved } from './ExportStatus';
import { DownloadIcon, FolderOpenIcon } from './icons';

/**
 * The in-app note of a finished export: its rows and size, where the file is, and what to do with it (Download in
 * browser mode, Show in folder in the desktop app). Notes are drawn outside the app's providers: the bridge comes in.
 */
export function ExportEndedNote({ info, bridge, jobHref }: { info: ExportInfo; bridge: Bridge; jobHref: string }) {
  const browser = bridge.kind !== 'electron';
  const [said, setSaid] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const act = () => {
    setBusy(true);
    setSaid(null);
    const done = browser
      ? downloadExport(info.id, fileNameOf(info.path)).then(() => 'Downloaded.')
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
        {whereSaved(info, browser)}
      </Text>
      <Group gap="xs">
        <Button
          size="compact-xs"
          variant="light"
          loading={busy}
          leftSection={browser ? <DownloadIcon size={12} /> : <FolderOpenIcon size={12} />}
          onClick={act}
        >
          {browser ? 'Download' : 'Show in folder'}
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
