import { Alert, Badge, Group, Paper, SimpleGrid, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { FILE_CLASSES, type FileClass, type Preview } from '../../shared/contract';
import { WarningIcon } from '../components/icons';
import { FILE_CLASS_INFO, skippedDescription } from './fileClasses';
import { formatBytes, formatCount, formatDuration, plural } from '../lib/format';

interface PreviewSummaryProps {
  preview: Preview;
  /** The class the file list is filtered by; clicking a class toggles it. */
  selected: FileClass | null;
  onSelect(fileClass: FileClass): void;
}

/** What the training would send, how long it would take, and every file's class at a glance. */
export function PreviewSummary({ preview, selected, onSelect }: PreviewSummaryProps) {
  return (
    <Stack gap="md">
      <Paper withBorder radius="md" p="md" bg="var(--mantine-color-default-hover)">
        <Group gap="xl" wrap="wrap">
          <Figure
            label="Will be sent"
            value={plural(preview.toSend.files, 'file')}
            detail={formatBytes(preview.toSend.bytes)}
          />
          <Figure
            label="Estimated time"
            value={preview.toSend.files === 0 ? '—' : formatDuration(preview.estimateSeconds)}
            detail="upload and training"
          />
          <Figure label="Scanned" value={plural(preview.totalFiles, 'file')} detail={`for ${preview.mentor.name}`} />
        </Group>
      </Paper>

      {preview.warnings.map((warning) => (
        <Alert key={warning} color="yellow" variant="light" icon={<WarningIcon />} py="xs">
          {warning}
        </Alert>
      ))}

      <div>
        <Text size="sm" fw={600} mb={6} id="preview-classes-label">
          Files by class
        </Text>
        <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }} spacing="xs" role="group" aria-labelledby="preview-classes-label">
          {FILE_CLASSES.map((fileClass) => (
            <ClassCard
              key={fileClass}
              fileClass={fileClass}
              description={
                fileClass === 'skipped'
                  ? skippedDescription(preview.skipped ?? [])
                  : FILE_CLASS_INFO[fileClass].description
              }
              count={preview.classes[fileClass] ?? 0}
              selected={selected === fileClass}
              onSelect={() => onSelect(fileClass)}
            />
          ))}
        </SimpleGrid>
      </div>
    </Stack>
  );
}

function Figure({ label, value, detail }: { label: string; value: string; detail: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: 0.4 }}>
        {label}
      </Text>
      <Text size="xl" fw={700} lh={1.3}>
        {value}
      </Text>
      <Text size="xs" c="dimmed">
        {detail}
      </Text>
    </div>
  );
}

interface ClassCardProps {
  fileClass: FileClass;
  /** One line under the count: what these files are. */
  description: string;
  count: number;
  selected: boolean;
  onSelect(): void;
}

function ClassCard({ fileClass, description, count, selected, onSelect }: ClassCardProps) {
  const info = FILE_CLASS_INFO[fileClass];
  const color = `var(--mantine-color-${info.color}-6)`;
  return (
    <UnstyledButton
      onClick={onSelect}
      disabled={count === 0}
      aria-pressed={selected}
      aria-label={`${info.label}: ${plural(count, 'file')}. ${description}. ${selected ? 'Showing only these' : 'Show only these'}`}
      data-testid={`preview-class-${fileClass}`}
      p="xs"
      style={{
        borderRadius: 'var(--mantine-radius-md)',
        border: `1px solid ${selected ? color : 'var(--mantine-color-default-border)'}`,
        boxShadow: selected ? `inset 0 0 0 1px ${color}` : undefined,
        opacity: count === 0 ? 0.55 : 1,
        cursor: count === 0 ? 'default' : 'pointer',
        // A button centres its content: cards with a shorter description would sit lower than their neighbours.
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'flex-start',
      }}
    >
      <Group gap={6} wrap="nowrap">
        <span aria-hidden="true" style={{ width: 8, height: 8, borderRadius: 4, background: color, flex: 'none' }} />
        <Text size="xs" fw={600} truncate="end">
          {info.label}
        </Text>
      </Group>
      <Text size="lg" fw={700} lh={1.4} data-count>
        {formatCount(count)}
      </Text>
      <Text size="10px" c="dimmed" lh={1.25} lineClamp={2} title={description} data-testid="class-description">
        {description}
      </Text>
    </UnstyledButton>
  );
}

/** Counts and sizes per file type. */
export function TypeTable({ preview }: { preview: Preview }) {
  return (
    <div>
      <Text size="sm" fw={600} mb={6}>
        By type
      </Text>
      <Table withTableBorder verticalSpacing={4} fz="sm" aria-label="Files by type">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Type</Table.Th>
            <Table.Th ta="right">Files</Table.Th>
            <Table.Th ta="right">Size</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {preview.byType.map((row) => (
            <Table.Tr key={row.type}>
              <Table.Td>
                <Badge variant="light" color="gray" radius="sm">
                  {row.type || 'no extension'}
                </Badge>
              </Table.Td>
              <Table.Td ta="right">{formatCount(row.files)}</Table.Td>
              <Table.Td ta="right">{formatBytes(row.bytes)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}
