import { Button, Checkbox, Popover, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { ColumnDeclaration } from '../../shared/resources';
import { useBridge } from '../bridge/BridgeContext';
import { DownloadIcon, lineIcon } from '../components/icons';
import { notifyError, notifySuccess } from '../components/notify';
import { formatCount } from '../lib/format';
import { saveFile } from '../lib/saveFile';
import type { Declared } from './naming';
import type { useColumnChoice } from './useColumnChoice';

const ColumnsIcon = lineIcon('ColumnsIcon', <path d="M4 5h16v14H4zM10 5v14M15 5v14" />);

/** Show or hide the list's columns; the first (the record's name, which opens it) always shows. */
export function ColumnsMenu({
  columns,
  choice,
}: {
  columns: readonly ColumnDeclaration[];
  choice: ReturnType<typeof useColumnChoice>;
}) {
  const hiddenCount = columns.length - choice.shown.length;
  return (
    <Popover position="bottom-end" withinPortal trapFocus shadow="md">
      <Popover.Target>
        <Button variant="default" size="xs" leftSection={<ColumnsIcon size={14} />}>
          Columns{hiddenCount ? ` (${hiddenCount} hidden)` : ''}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" role="group" aria-label="Columns shown">
          <Text size="xs" c="dimmed">
            Shown in this list
          </Text>
          {columns.map((column, index) => (
            <Checkbox
              key={column.field}
              size="xs"
              label={column.label}
              checked={choice.isShown(column.field)}
              disabled={index === 0}
              onChange={() => choice.toggle(column.field)}
            />
          ))}
          {hiddenCount > 0 && (
            <Button size="compact-xs" variant="subtle" onClick={choice.reset}>
              Show all columns
            </Button>
          )}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/**
 * Saves the records the list matches (search and filters, every page) as CSV with the columns shown: the host asks
 * where (the desktop app's save dialog) or downloads it (browser mode).
 */
export function ExportButton({
  profileId,
  declaration,
  query,
  columns,
  disabled,
}: {
  profileId: string;
  declaration: Declared;
  query: { search?: string; where?: Record<string, string> };
  columns: readonly ColumnDeclaration[];
  disabled?: boolean;
}) {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  async function exportCsv() {
    setBusy(true);
    try {
      const file = await bridge.call('resources.export', {
        profileId,
        kind: declaration.kind,
        ...query,
        columns: columns.map((column) => column.field),
      });
      saveFile(new Blob([file.csv], { type: 'text/csv;charset=utf-8' }), file.fileName);
      notifySuccess(
        'Exported',
        `${formatCount(file.rows)} ${file.rows === 1 ? declaration.singular : (declaration.plural ?? declaration.label)} to ${file.fileName}`,
      );
    } catch (error) {
      notifyError('Not exported', error);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button
      variant="default"
      size="xs"
      leftSection={<DownloadIcon size={14} />}
      loading={busy}
      disabled={disabled}
      onClick={() => void exportCsv()}
    >
      Export CSV
    </Button>
  );
}

/** The names a bulk confirmation lists: the first few, then how many more. */
export function NamesList({ names, max = 8 }: { names: string[]; max?: number }) {
  return (
    <Stack gap={2} component="ul" m={0} pl="md">
      {names.slice(0, max).map((name) => (
        <Text key={name} size="sm" component="li" style={{ wordBreak: 'break-word' }}>
          {name}
        </Text>
      ))}
      {names.length > max && (
        <Text size="sm" c="dimmed" component="li">
          and {formatCount(names.length - max)} more
        </Text>
      )}
    </Stack>
  );
}
