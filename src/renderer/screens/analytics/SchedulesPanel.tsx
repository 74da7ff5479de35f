import {
  Alert,
  Button,
  Card,
  Group,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import {
  calls,
  findDataset,
  localTimeZone,
  RELATIVE_RANGE_LABELS,
  RELATIVE_RANGES,
  type Schedule,
} from '../../../shared/contract';
import type { GrantedPath } from '../../../shared/transport';
import { useBridge } from '../../bridge/BridgeContext';
import { errorMessage } from '../../bridge/errors';
import { contractResolver, showSaveError, topLevelField } from '../../lib/forms';
import { useMutationCall } from '../../queries/useCall';
import { DATASET_OPTIONS, DELIMITER_OPTIONS } from './ExportsTab';
import { FolderField } from './FolderField';
import { formatWhen } from './format';
import { ClockIcon } from './icons';
import { useAnalytics } from './useAnalytics';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export function describeSchedule(s: Pick<Schedule, 'cadence' | 'weekday' | 'time' | 'timeZone'>): string {
  const day = s.cadence === 'daily' ? 'Every day' : `Every ${WEEKDAYS[s.weekday ?? 1]}`;
  return `${day} at ${s.time} (${s.timeZone})`;
}

interface Draft {
  id?: string;
  name: string;
  dataset: string;
  cadence: 'daily' | 'weekly';
  weekday: number;
  time: string;
  timeZone: string;
  rangeDays: (typeof RELATIVE_RANGES)[number];
  /** The schedule's own folder, to show ('' for a new one: the export folder). */
  folder: string;
  /** A folder chosen in the desktop app's dialog: sent as its handle; otherwise the schedule keeps its folder. */
  chosen: GrantedPath | null;
  bom: boolean;
  delimiter: string;
  enabled: boolean;
}

const EMPTY: Draft = {
  name: 'Monthly report',
  dataset: 'conversations',
  cadence: 'weekly',
  weekday: 1,
  time: '06:00',
  timeZone: localTimeZone(),
  rangeDays: 7,
  folder: '',
  chosen: null,
  bom: true,
  delimiter: ',',
  enabled: true,
};

/** The boxes that show their own message; anything else the engine says (the folder) goes to the alert. */
const fieldOf = topLevelField(['name', 'dataset', 'cadence', 'weekday', 'time', 'timeZone', 'rangeDays', 'delimiter']);

/** What Save sends: a weekday only for a weekly schedule, a folder only when one was chosen in this dialog. */
const toInput = (value: Draft) => ({
  ...(value.id ? { id: value.id } : {}),
  name: value.name,
  dataset: value.dataset,
  cadence: value.cadence,
  ...(value.cadence === 'weekly' ? { weekday: value.weekday } : {}),
  time: value.time,
  timeZone: value.timeZone,
  rangeDays: value.rangeDays,
  ...(value.chosen ? { folder: value.chosen.handle } : {}),
  bom: value.bom,
  delimiter: value.delimiter as ',',
  enabled: value.enabled,
});

function ScheduleModal({ draft, onClose }: { draft: Draft; onClose(): void }) {
  const bridge = useBridge();
  const form = useForm<Draft>({
    mode: 'controlled',
    initialValues: draft,
    validate: contractResolver(calls['analytics.scheduleSave'].input, toInput, fieldOf),
  });
  const value = form.values;
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const defaultFolder = useAnalytics('analytics.exportFolder', {}).data?.folder;

  async function save() {
    setError(null);
    if (form.validate().hasErrors) return;
    setSaving(true);
    try {
      await bridge.call('analytics.scheduleSave', toInput(form.getValues()));
      onClose();
    } catch (e) {
      setError(showSaveError(form, e, fieldOf));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal opened onClose={onClose} title={value.id ? 'Edit scheduled export' : 'New scheduled export'} size="lg">
      <Stack gap="sm">
        <TextInput label="Name" {...form.getInputProps('name')} required />
        <Select
          label="Dataset"
          data={DATASET_OPTIONS}
          {...form.getInputProps('dataset')}
          onChange={(d) => d && form.setFieldValue('dataset', d)}
          allowDeselect={false}
        />
        <Group grow align="flex-end">
          <SegmentedControl
            data={[
              { value: 'daily', label: 'Daily' },
              { value: 'weekly', label: 'Weekly' },
            ]}
            value={value.cadence}
            onChange={(c) => form.setFieldValue('cadence', c as 'daily')}
          />
          {value.cadence === 'weekly' ? (
            <Select
              label="Day"
              data={WEEKDAYS.map((d, i) => ({ value: String(i), label: d }))}
              value={String(value.weekday)}
              error={form.errors.weekday}
              onChange={(d) => d && form.setFieldValue('weekday', Number(d))}
              allowDeselect={false}
            />
          ) : null}
          <TextInput label="Time" type="time" {...form.getInputProps('time')} />
        </Group>
        <Group grow>
          <TextInput label="Time zone" {...form.getInputProps('timeZone')} />
          <Select
            label="Range"
            data={RELATIVE_RANGES.map((n) => ({ value: String(n), label: RELATIVE_RANGE_LABELS[n] }))}
            value={String(value.rangeDays)}
            error={form.errors.rangeDays}
            onChange={(n) => n && form.setFieldValue('rangeDays', Number(n) as 7)}
            allowDeselect={false}
          />
        </Group>
        <FolderField
          chosen={value.chosen}
          onChoose={(chosen) => form.setFieldValue('chosen', chosen)}
          fallback={value.folder || defaultFolder}
          description="Each run writes a new file there."
        />
        <Group>
          <Select
            label="Delimiter"
            data={DELIMITER_OPTIONS}
            {...form.getInputProps('delimiter')}
            onChange={(d) => d && form.setFieldValue('delimiter', d)}
            allowDeselect={false}
            w={160}
          />
          <Switch label="Byte order mark" {...form.getInputProps('bom', { type: 'checkbox' })} mt="lg" />
          <Switch label="Enabled" {...form.getInputProps('enabled', { type: 'checkbox' })} mt="lg" />
        </Group>
        <Text size="xs" c="dimmed">
          Runs while the app is open; a run missed while it was closed catches up when it next starts.
        </Text>
        {error ? (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void save()} loading={saving}>
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function SchedulesPanel() {
  const schedules = useAnalytics('analytics.schedules', {});
  const run = useMutationCall('analytics.scheduleRun');
  const remove = useMutationCall('analytics.scheduleRemove');
  const [editing, setEditing] = useState<Draft | null>(null);
  return (
    <Card withBorder radius="md" data-testid="schedules">
      <Group justify="space-between" mb="sm">
        <Title order={4} fz="md">
          Scheduled exports
        </Title>
        <Button size="xs" variant="light" leftSection={<ClockIcon size={14} />} onClick={() => setEditing(EMPTY)}>
          New schedule
        </Button>
      </Group>
      {schedules.data && !schedules.data.schedules.length ? (
        <Text c="dimmed" size="sm">
          None yet. A schedule writes a dataset for a relative range (e.g. the last 7 days) to a folder, daily or
          weekly.
        </Text>
      ) : (
        <Table fz="sm" aria-label="Scheduled exports">
          <Table.Tbody>
            {(schedules.data?.schedules ?? []).map((s) => (
              <Table.Tr key={s.id}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {s.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {findDataset(s.dataset)?.label ?? s.dataset} ·{' '}
                    {RELATIVE_RANGE_LABELS[s.rangeDays as 7] ?? `${s.rangeDays} days`} → {s.folder}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="xs">{s.enabled ? describeSchedule(s) : 'Disabled'}</Text>
                  <Text size="xs" c="dimmed">
                    Next: {formatWhen(s.nextRunAt)} · Last:{' '}
                    {s.lastExport ? `${s.lastExport.state} ${formatWhen(s.lastExport.createdAt)}` : 'never'}
                  </Text>
                  {s.lastExport?.state === 'failed' ? (
                    <Text size="xs" c="red">
                      {s.lastExport.error}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <Button size="compact-xs" variant="subtle" onClick={() => run.mutate({ id: s.id })}>
                      Run now
                    </Button>
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      onClick={() =>
                        setEditing({
                          id: s.id,
                          name: s.name,
                          dataset: s.dataset,
                          cadence: s.cadence,
                          weekday: s.weekday ?? 1,
                          time: s.time,
                          timeZone: s.timeZone,
                          rangeDays: s.rangeDays as 7,
                          folder: s.folder,
                          chosen: null,
                          bom: s.bom,
                          delimiter: s.delimiter,
                          enabled: s.enabled,
                        })
                      }
                    >
                      Edit
                    </Button>
                    <Button size="compact-xs" variant="subtle" color="red" onClick={() => remove.mutate({ id: s.id })}>
                      Delete
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {run.error ? (
        <Text size="xs" c="red">
          {errorMessage(run.error)}
        </Text>
      ) : null}
      {editing ? <ScheduleModal draft={editing} onClose={() => setEditing(null)} /> : null}
    </Card>
  );
}
