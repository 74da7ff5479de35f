import { Alert, Anchor, Button, CopyButton, Group, Popover, Progress, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { ExportInfo } from '../../../shared/contract';
import { useBridge } from '../../bridge/BridgeContext';
import { errorMessage } from '../../bridge/errors';
import { formatInteger, formatSeconds } from './format';
import { FolderOpenIcon } from './icons';
import { useAnalytics } from './useAnalytics';

const RUNNING = new Set(['queued', 'running', 'waiting']);

export function exportPercent(info: ExportInfo): number {
  if (info.state === 'completed') return 100;
  if (!info.pagesTotal) return 0;
  return Math.min(100, Math.round((info.pagesDone / info.pagesTotal) * 100));
}

/**
 * "Show in folder". The desktop app opens the folder with the file selected (the shell checks it is a file this app
 * exported); in a browser, which cannot open folders, the path is shown with buttons to copy it and its folder.
 */
export function RevealButton({ id }: { id: string }) {
  const bridge = useBridge();
  const [where, setWhere] = useState<{ path: string; folder: string; exists: boolean } | null>(null);
  const [shown, setShown] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Popover
      withArrow
      position="bottom-end"
      opened={!!where || !!error}
      onChange={(o) => !o && (setWhere(null), setError(null))}
    >
      <Popover.Target>
        <Group gap={6} wrap="nowrap">
          {shown ? (
            <Text size="xs" c="dimmed" role="status" data-testid="export-shown">
              Opened in the file manager
            </Text>
          ) : null}
          <Button
            size="xs"
            variant="light"
            leftSection={<FolderOpenIcon size={14} />}
            onClick={() => {
              setShown(false);
              bridge.call('analytics.reveal', { id }).then(
                (answer) => (answer.shown ? setShown(true) : setWhere(answer)),
                (e: unknown) => setError(errorMessage(e)),
              );
            }}
          >
            Show in folder
          </Button>
        </Group>
      </Popover.Target>
      <Popover.Dropdown maw={480}>
        {where ? (
          <Stack gap={6}>
            <Text size="xs" c="dimmed">
              {where.exists ? 'The file is in' : 'The file is not there any more. It was written to'}
            </Text>
            <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }} data-testid="export-path">
              {where.path}
            </Text>
            <Group gap="xs">
              <CopyButton value={where.path}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="default" onClick={copy}>
                    {copied ? 'Copied' : 'Copy path'}
                  </Button>
                )}
              </CopyButton>
              <CopyButton value={where.folder}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="default" onClick={copy}>
                    {copied ? 'Copied' : 'Copy folder'}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Stack>
        ) : (
          <Text size="sm" c="red">
            {error}
          </Text>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}

/** One export as it runs and when it ends: progress with rows/s and ETA, then the file or the reason it failed. */
export function ExportStatus({ id, compact = false }: { id: string; compact?: boolean }) {
  const info = useAnalytics('analytics.export', { id });
  const data = info.data;
  if (!data) return <Progress value={0} animated size="sm" aria-label="Starting the export" />;
  if (RUNNING.has(data.state) || data.state === 'paused') {
    return (
      <Stack gap={4} data-testid="export-progress">
        <Progress
          value={exportPercent(data)}
          animated={data.state === 'running'}
          size="sm"
          aria-label="Export progress"
        />
        <Text size="xs" c="dimmed">
          {data.state === 'waiting' || data.state === 'paused'
            ? (data.reason ?? data.state)
            : `${formatInteger(data.rows)} rows · ${formatInteger(data.rowsPerSecond)} rows/s${
                data.etaSeconds !== null ? ` · about ${formatSeconds(data.etaSeconds)} left` : ''
              }`}
        </Text>
      </Stack>
    );
  }
  if (data.state === 'completed') {
    return (
      <Group gap="xs" justify="space-between" data-testid="export-done">
        <Text size="xs" c="teal" style={{ wordBreak: 'break-all' }}>
          {compact
            ? `Saved ${formatInteger(data.rows)} rows`
            : `Saved ${formatInteger(data.rows)} rows to ${data.path}`}
        </Text>
        <RevealButton id={data.id} />
      </Group>
    );
  }
  return (
    <Alert
      color="red"
      variant="light"
      p="xs"
      data-testid="export-failed"
      title={data.state === 'cancelled' ? 'Cancelled' : 'The export failed'}
    >
      <Text size="xs">{data.error ?? data.reason ?? ''}</Text>
      {data.state === 'failed' ? (
        <Anchor size="xs" href={`#/jobs/${encodeURIComponent(data.id)}`}>
          Open the job
        </Anchor>
      ) : null}
    </Alert>
  );
}
