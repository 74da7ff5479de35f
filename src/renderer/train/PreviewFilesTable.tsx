import { Badge, Group, Pagination, ScrollArea, Select, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FILE_CLASSES, FileClass, type Preview } from '../../shared/contract';
import { useBridge } from '../bridge/BridgeContext';
import { errorMessage } from '../bridge/errors';
import { WarningIcon } from '../components/icons';
import { callKey } from '../queries/useCall';
import { FILE_CLASS_INFO } from './fileClasses';
import { formatBytes, formatCount } from '../lib/format';

const PAGE_SIZE = 50;
const ALL = 'all';

interface PreviewFilesTableProps {
  preview: Preview;
  fileClass: FileClass | null;
  onClassChange(fileClass: FileClass | null): void;
}

/** Every scanned file with its class and reason, a page at a time (a drop may hold 10,000+ files). */
export function PreviewFilesTable({ preview, fileClass, onClassChange }: PreviewFilesTableProps) {
  const bridge = useBridge();
  const [page, setPage] = useState(1);
  const [pageKey, setPageKey] = useState(`${preview.id}|${fileClass}`);
  // A new preview or another class starts again at the first page.
  if (pageKey !== `${preview.id}|${fileClass}`) {
    setPageKey(`${preview.id}|${fileClass}`);
    setPage(1);
  }
  const input = {
    previewId: preview.id,
    ...(fileClass ? { classes: [fileClass] } : {}),
    offset: (page - 1) * PAGE_SIZE,
    limit: PAGE_SIZE,
  };
  const files = useQuery({
    queryKey: callKey('train.previewFiles', input),
    queryFn: () => bridge.call('train.previewFiles', input),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
  const total = files.data?.total ?? (fileClass ? (preview.classes[fileClass] ?? 0) : preview.totalFiles);
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  const options = [
    { value: ALL, label: `All files (${formatCount(preview.totalFiles)})` },
    ...FILE_CLASSES.filter((value) => (preview.classes[value] ?? 0) > 0 || value === fileClass).map((value) => ({
      value,
      label: `${FILE_CLASS_INFO[value].label} (${formatCount(preview.classes[value] ?? 0)})`,
    })),
  ];

  return (
    <div>
      <Group justify="space-between" mb={6}>
        <Text size="sm" fw={600}>
          Files
        </Text>
        <Select
          aria-label="Show files of class"
          size="xs"
          w={220}
          data={options}
          value={fileClass ?? ALL}
          onChange={(value) => onClassChange(value && value !== ALL ? FileClass.parse(value) : null)}
          allowDeselect={false}
        />
      </Group>
      <ScrollArea.Autosize mah={300} type="auto" offsetScrollbars>
        <Table stickyHeader verticalSpacing={4} fz="sm" aria-label="Scanned files" data-testid="preview-files">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>File</Table.Th>
              <Table.Th w={80}>Type</Table.Th>
              <Table.Th w={90} ta="right">
                Size
              </Table.Th>
              <Table.Th w={120}>Class</Table.Th>
              <Table.Th>Reason</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody style={{ opacity: files.isPlaceholderData ? 0.6 : 1 }}>
            {files.data?.files.map((file) => (
              <Table.Tr key={file.path}>
                <Table.Td maw={360}>
                  <Text size="sm" truncate="start" title={file.relativePath}>
                    {file.relativePath}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="xs" c="dimmed">
                    {file.type || '—'}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{formatBytes(file.size)}</Table.Td>
                <Table.Td>
                  <Badge
                    size="sm"
                    variant="light"
                    color={FILE_CLASS_INFO[file.class].color}
                    radius="sm"
                    style={{ minWidth: 'max-content' }}
                  >
                    {FILE_CLASS_INFO[file.class].label}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="xs" c="dimmed" lineClamp={2} title={file.reason ?? undefined}>
                    {file.reason ?? ''}
                  </Text>
                  {file.warning && (
                    <Group gap={4} wrap="nowrap" c="orange" mt={2} data-testid="file-warning">
                      <WarningIcon size={12} />
                      <Text size="xs" c="orange" lineClamp={2} title={file.warning}>
                        {file.warning}
                      </Text>
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
            {files.isError && (
              <Table.Tr>
                <Table.Td colSpan={5}>
                  <Text size="sm" c="red">
                    {errorMessage(files.error)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {files.data && files.data.files.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={5}>
                  <Text size="sm" c="dimmed" ta="center" py="sm">
                    No files here.
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
      {pages > 1 && (
        <Group justify="space-between" mt="xs">
          <Text size="xs" c="dimmed">
            {formatCount(input.offset + 1)}–{formatCount(Math.min(total, input.offset + PAGE_SIZE))} of{' '}
            {formatCount(total)}
          </Text>
          <Pagination
            size="sm"
            total={pages}
            value={page}
            onChange={setPage}
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          />
        </Group>
      )}
    </div>
  );
}
