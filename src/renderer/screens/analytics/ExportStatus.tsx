import { Alert, Anchor, Button, CopyButton, Group, Popover, Progress, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { formatBytes } from '../../lib/format';
import type { ExportInfo } from '../../../shared/contract';
import { useBridge } from '../../bridge/BridgeContext';
import { errorMessage } from '../../bridge/errors';
import type { HostCapabilities } from '../../bridge/types';
import { fileNameOf } from '../../lib/paths';
import { formatInteger, formatSeconds } from './format';
import { DownloadIcon, FolderOpenIcon } from './icons';
import { useAnalytics } from './useAnalytics';

const RUNNING = new Set(['queued', 'running', 'waiting']);

export function exportPercent(info: ExportInfo): number {
  if (info.state === 'completed') return 100;
  if (!info.pagesTotal) return 0;
  return Math.min(100, Math.round((info.pagesDone / info.pagesTotal) * 100));
}

/** "1,204 rows · 48 KB". */
export function describeFile(info: Pick<ExportInfo, 'rows' | 'bytes'>): string {
  const rows = `${formatInteger(info.rows)} ${info.rows === 1 ? 'row' : 'rows'}`;
  return info.bytes === null ? rows : `${rows} · ${formatBytes(info.bytes)}`;
}

/**
 * "Show in folder" in the desktop app: the shell opens the folder with the file selected (it checks the file is one
 * this app exported). Should it not, the path is shown with buttons to copy it and its folder.
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
            <FilePath path={where.path} folder={where.folder} />
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

function FilePath({ path, folder }: { path: string; folder?: string }) {
  return (
    <>
      <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }} data-testid="export-path">
        {path}
      </Text>
      <Group gap="xs">
        <CopyButton value={path}>
          {({ copied, copy }) => (
            <Button size="xs" variant="default" onClick={copy}>
              {copied ? 'Copied' : 'Copy path'}
            </Button>
          )}
        </CopyButton>
        {folder ? (
          <CopyButton value={folder}>
            {({ copied, copy }) => (
              <Button size="xs" variant="default" onClick={copy}>
                {copied ? 'Copied' : 'Copy folder'}
              </Button>
            )}
          </CopyButton>
        ) : null}
      </Group>
    </>
  );
}

/** Browser mode: the host hands the file to this page, which saves it with the browser's downloads. */
export function DownloadButton({
  info,
  download,
}: {
  info: Pick<ExportInfo, 'id' | 'path'>;
  download: NonNullable<HostCapabilities['downloadFile']>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Group gap={6} wrap="nowrap">
      {error ? (
        <Text size="xs" c="red" role="alert" data-testid="download-error">
          {error}
        </Text>
      ) : null}
      <Button
        size="xs"
        variant="light"
        loading={busy}
        leftSection={<DownloadIcon size={14} />}
        data-testid="export-download"
        onClick={() => {
          setBusy(true);
          setError(null);
          download(info.id, fileNameOf(info.path))
            .catch((e: unknown) => setError(errorMessage(e)))
            .finally(() => setBusy(false));
        }}
      >
        Download
      </Button>
    </Group>
  );
}

/**
 * What to do with a finished export's file: Show in folder where the host can reveal it (the desktop app); Download
 * where it hands the file to the page instead (browser mode: a page cannot open a file of the computer it runs on).
 */
export function FileActions({ info }: { info: Pick<ExportInfo, 'id' | 'path'> }) {
  const host = useBridge().capabilities;
  if (host.revealFile) return <RevealButton id={info.id} />;
  return host.downloadFile ? <DownloadButton info={info} download={host.downloadFile} /> : null;
}

/** Where a finished file is, in words: a page that cannot reveal it says it is on the computer running Mentor Admin. */
export function whereSaved(info: Pick<ExportInfo, 'path'>, host: Pick<HostCapabilities, 'revealFile'>): string {
  return host.revealFile ? `Saved to ${info.path}` : `Saved on the computer running Mentor Admin: ${info.path}`;
}

/** One export as it runs and when it ends: progress with rows/s and ETA, then the file or the reason it failed. */
export function ExportStatus({ id, compact = false }: { id: string; compact?: boolean }) {
  const bridge = useBridge();
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
      <Group gap="xs" justify="space-between" wrap="nowrap" align="flex-start" data-testid="export-done">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text size="xs" c="teal" fw={500}>
            Saved {describeFile(data)}
          </Text>
          <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }} title={data.path} data-testid="export-where">
            {compact ? fileNameOf(data.path) : whereSaved(data, bridge.capabilities)}
          </Text>
        </Stack>
        <FileActions info={data} />
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
