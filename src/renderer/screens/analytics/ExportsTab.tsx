import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  MultiSelect,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { DATASETS, datasetFilters, findDataset, type ExportInfo } from '../../../shared/contract';
import type { GrantedPath } from '../../../shared/transport';
import { useBridge } from '../../bridge/BridgeContext';
import { errorMessage } from '../../bridge/errors';
import { useMutationCall } from '../../queries/useCall';
import { useDashboardFilters } from './DashboardFilters';
import { fileNameOf } from '../../lib/paths';
import { describeFile, ExportStatus, FileActions } from './ExportStatus';
import { FilterBar } from './FilterBar';
import { FolderField } from './FolderField';
import { asLabel, formatInteger, formatWhen } from './format';
import { ExportIcon } from './icons';
import { tenantReach, TenantDownBanner, useTenantDownAnywhere } from './PanelState';
import { SchedulesPanel } from './SchedulesPanel';
import { useAnalytics } from './useAnalytics';

export const DELIMITER_OPTIONS = [
  { value: ',', label: 'Comma' },
  { value: ';', label: 'Semicolon' },
  { value: '\t', label: 'Tab' },
  { value: '|', label: 'Pipe' },
];

export const DATASET_OPTIONS = [
  { group: 'Conversations', items: ['chat-history', 'conversations', 'topics', 'sentiment', 'usage'] },
  { group: 'Costs', items: ['costs', 'costs-by-mentor', 'costs-by-model'] },
  { group: 'Learning', items: ['users', 'learners', 'completions', 'courses', 'departments'] },
  // A learner's chart is exported from that learner's page: this form has no learner to give.
  {
    group: 'Charts',
    items: DATASETS.filter((d) => d.id.startsWith('chart.') && !d.perLearner).map((d) => d.id),
  },
].map(({ group, items }) => ({ group, items: items.map((id) => ({ value: id, label: findDataset(id)!.label })) }));

const STATE_COLOR: Record<string, string> = {
  completed: 'teal',
  failed: 'red',
  cancelled: 'gray',
  running: 'blue',
  waiting: 'yellow',
  paused: 'orange',
  queued: 'gray',
};

function ExportForm() {
  const bridge = useBridge();
  const { input } = useDashboardFilters();
  const [dataset, setDataset] = useState('conversations');
  const [columns, setColumns] = useState<string[]>([]);
  const [bom, setBom] = useState(true);
  const [delimiter, setDelimiter] = useState(',');
  const [folder, setFolder] = useState<GrantedPath | null>(null);
  const [started, setStarted] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const spec = findDataset(dataset)!;
  const defaultFolder = useAnalytics('analytics.exportFolder', {}).data?.folder;
  // The tenant's mentors (the filter bar's list): whether the tenant answers, so an export would not only wait.
  const tenant = useAnalytics('analytics.filters', { parts: ['mentors'] });
  const failedElsewhere = useTenantDownAnywhere();
  const { down, exportsOff } = tenantReach([
    { error: tenant.error, hasData: !!tenant.data, offline: tenant.data?.freshness.offline },
    { error: failedElsewhere, hasData: false },
  ]);

  async function start() {
    setBusy(true);
    setError(null);
    try {
      const info = await bridge.call('analytics.exportStart', {
        dataset,
        range: input.range,
        timeZone: input.timeZone,
        ...datasetFilters(spec, input),
        bom,
        delimiter: delimiter as ',',
        ...(columns.length ? { columns } : {}),
        ...(folder ? { folder: folder.handle } : {}),
      });
      setStarted(info.id);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card withBorder radius="md" data-testid="export-form">
      <Title order={4} fz="md" mb="sm">
        New export
      </Title>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <Stack gap="xs">
          <Select
            label="Dataset"
            data={DATASET_OPTIONS}
            value={dataset}
            onChange={(value) => {
              if (!value) return;
              setDataset(value);
              setColumns([]);
            }}
            allowDeselect={false}
            searchable
          />
          <Text size="xs" c="dimmed">
            {spec.description}
            {spec.ranged ? '' : ' The range does not apply.'}
            {input.mentor && !spec.mentorFilter ? ' Not filtered by mentor (the platform cannot).' : ''}
            {input.department && !spec.departmentFilter ? ' Not filtered by department (the platform cannot).' : ''}
          </Text>
          <MultiSelect
            label="Columns"
            description="All columns when none are chosen; the file keeps the order you pick them in."
            data={spec.columns.map((c) => ({ value: c.key, label: c.label }))}
            value={columns}
            onChange={setColumns}
            clearable
            placeholder="All columns"
          />
        </Stack>
        <Stack gap="xs">
          <Group gap="md" align="flex-end">
            <Stack gap={2}>
              <Text size="sm" fw={500} id="delimiter-label">
                Delimiter
              </Text>
              <SegmentedControl
                aria-labelledby="delimiter-label"
                size="xs"
                data={DELIMITER_OPTIONS}
                value={delimiter}
                onChange={setDelimiter}
              />
            </Stack>
            <Switch
              label="Byte order mark (for Excel)"
              checked={bom}
              onChange={(e) => setBom(e.currentTarget.checked)}
            />
          </Group>
          <FolderField
            chosen={folder}
            onChoose={setFolder}
            fallback={defaultFolder}
            description="The file name says tenant, dataset, range and time zone."
          />
          {down ? <TenantDownBanner error={down} /> : null}
          <Group>
            <Button
              leftSection={<ExportIcon size={16} />}
              onClick={() => void start()}
              loading={busy}
              disabled={!!exportsOff}
              title={exportsOff ?? undefined}
            >
              Export CSV
            </Button>
            {exportsOff && !down ? (
              <Text size="xs" c="dimmed" data-testid="exports-off">
                {exportsOff}
              </Text>
            ) : null}
          </Group>
          {error ? (
            <Text size="sm" c="red" role="alert">
              {error}
            </Text>
          ) : null}
          {started ? <ExportStatus id={started} /> : null}
        </Stack>
      </SimpleGrid>
    </Card>
  );
}

function HistoryRow({ info }: { info: ExportInfo }) {
  const cancel = useMutationCall('jobs.cancel');
  const running = ['queued', 'running', 'waiting', 'paused'].includes(info.state);
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm">{info.title}</Text>
        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }} title={info.path}>
          {fileNameOf(info.path)}
        </Text>
      </Table.Td>
      <Table.Td miw={120}>
        <Badge variant="light" color={STATE_COLOR[info.state] ?? 'gray'} style={{ overflow: 'visible' }}>
          {asLabel(info.state)}
        </Badge>
        {info.scheduleId ? (
          <Badge variant="outline" ml={4} size="sm">
            Scheduled
          </Badge>
        ) : null}
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {info.state === 'completed' ? describeFile(info) : formatInteger(info.rows)}
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatWhen(info.createdAt)}</Table.Td>
      <Table.Td miw={160}>
        {running ? (
          <Group gap="xs" wrap="nowrap">
            <div style={{ flex: 1 }}>
              <ExportStatus id={info.id} compact />
            </div>
            <Button size="compact-xs" variant="subtle" color="red" onClick={() => cancel.mutate({ id: info.id })}>
              Cancel
            </Button>
          </Group>
        ) : info.state === 'completed' ? (
          <FileActions info={info} />
        ) : (
          <Text size="xs" c="red">
            {info.error ?? info.reason ?? ''}
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

export function ExportHistory({ scheduleId }: { scheduleId?: string }) {
  const history = useAnalytics('analytics.exports', { limit: 50, ...(scheduleId ? { scheduleId } : {}) });
  if (history.error) return <Alert color="red">{errorMessage(history.error)}</Alert>;
  if (history.data && !history.data.exports.length)
    return (
      <Text c="dimmed" size="sm">
        No exports yet.
      </Text>
    );
  return (
    <Table fz="sm" aria-label="Export history" data-testid="export-history">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Export</Table.Th>
          <Table.Th>State</Table.Th>
          <Table.Th>Size</Table.Th>
          <Table.Th>Started</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {(history.data?.exports ?? []).map((info) => (
          <HistoryRow key={info.id} info={info} />
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Exports: any dataset to CSV with its options, their progress and history, and scheduled exports. */
export function ExportsTab() {
  return (
    <Stack gap="md">
      <FilterBar />
      <ExportForm />
      <SchedulesPanel />
      <Card withBorder radius="md">
        <Title order={4} fz="md" mb="sm">
          History
        </Title>
        <ExportHistory />
      </Card>
    </Stack>
  );
}
